// The system SQLite (libsqlite3-dev on Linux, the SDK on macOS), imported by SQLiteRunStore and by the query step.
#include <sqlite3.h>
