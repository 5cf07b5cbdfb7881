#include "CProcessControl.h"

#if defined(__linux__)
#include <sys/prctl.h>

int pushline_make_nondumpable(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : -1;
}

int pushline_is_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
}
#else
int pushline_make_nondumpable(void) { return -1; }
int pushline_is_dumpable(void) { return -1; }
#endif
