// BelayPipeline
