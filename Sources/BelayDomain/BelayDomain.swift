// BelayDomain
