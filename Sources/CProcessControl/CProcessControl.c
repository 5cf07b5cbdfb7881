#include "CProcessControl.h"

#if defined(__linux__)
#include <errno.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int pushline_make_nondumpable(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : -1;
}

int pushline_is_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
}

int pushline_pidfd_open(int pid) {
#if defined(SYS_pidfd_open)
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    /* pidfd_open is system call 434 on every architecture (added after their tables were unified). */
    return (int)syscall(434, pid, 0);
#endif
}
#else
int pushline_make_nondumpable(void) { return -1; }
int pushline_is_dumpable(void) { return -1; }
int pushline_pidfd_open(int pid) { (void)pid; return -1; }
#endif
