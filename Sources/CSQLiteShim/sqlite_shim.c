// sync_file_range is a GNU extension.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sqlite3.h>
#include "sqlite_shim.h"

int belay_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int belay_start_writeback(const char *path) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    int result = 0;
#ifdef SYNC_FILE_RANGE_WRITE
    if (sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE) != 0) result = errno;
#endif
    close(fd);
    return result;
}
