#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro Swift cannot import: a destructor pointer of -1 that makes
/// SQLite copy a bound value before the call returns.
static inline sqlite3_destructor_type belay_sqlite_transient(void) { return SQLITE_TRANSIENT; }
