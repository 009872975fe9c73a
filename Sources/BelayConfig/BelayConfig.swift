// BelayConfig
