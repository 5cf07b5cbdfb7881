// The system SQLite (libsqlite3-dev on Linux, the SDK on macOS), imported only by RunJournal.
#include <sqlite3.h>
