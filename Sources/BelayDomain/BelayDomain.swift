// BelayDomain
import CCrypto
