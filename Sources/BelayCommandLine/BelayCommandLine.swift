// BelayCommandLine
