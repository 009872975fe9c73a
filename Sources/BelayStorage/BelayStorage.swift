// BelayStorage
import CSQLite
