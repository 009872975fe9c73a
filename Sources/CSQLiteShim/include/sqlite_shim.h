#ifndef BELAY_SQLITE_SHIM_H
#define BELAY_SQLITE_SHIM_H

/// Turns off SQLite's process-wide memory statistics, which take a global mutex on every
/// allocation of every connection. Must run before the first connection is opened; returns
/// SQLITE_OK, or SQLITE_MISUSE when SQLite was already initialised (then nothing changes).
/// `sqlite3_config` is variadic, which Swift cannot call.
int belay_sqlite_disable_memory_statistics(void);

/// Starts writing the file at `path` back to disk without waiting for it (Linux
/// `sync_file_range(SYNC_FILE_RANGE_WRITE)`), so that a later fsync of it has little left to
/// wait for. Returns 0, or the errno of the open or the call (ENOENT when there is no file).
int belay_start_writeback(const char *path);

#endif
