// BelayAPI
