#ifndef PUSHLINE_CPROCESSCONTROL_H
#define PUSHLINE_CPROCESSCONTROL_H

/// Makes this process non-dumpable (Linux `prctl(PR_SET_DUMPABLE, 0)`): processes of the same user, a plugin among
/// them, can no longer read its `/proc/PID/environ` or `/proc/PID/mem` or attach to it, and it leaves no core dump.
/// `prctl` is variadic, which Swift cannot call. Returns 0 on success, -1 where it failed or does not exist.
int pushline_make_nondumpable(void);

/// 1 when this process is dumpable, 0 when not, -1 where that cannot be told.
int pushline_is_dumpable(void);

/// A pidfd for process `pid` (Linux `pidfd_open(2)`, made through `syscall`, which is variadic): readable once the
/// process has exited, whoever its parent is. -1 with errno set where it fails or does not exist (ESRCH: no such process).
int pushline_pidfd_open(int pid);

#endif
