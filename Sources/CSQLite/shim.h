#include <sqlite3.h>

/// Turns off SQLite's memory statistics, before the first connection opens (SQLite ignores it after). With them on
/// (Debian's build), every allocation SQLite makes takes a global mutex to count its bytes, which nothing here reads.
/// `sqlite3_config` is variadic, which Swift cannot call.
static inline int travel411_sqlite3_turn_off_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
