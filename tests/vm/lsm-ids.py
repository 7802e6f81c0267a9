#!/usr/bin/env python3
"""Print the ids lsm_list_modules(2) returns, one a line, in the kernel's
order; or the errno's name (ENOSYS before Linux 6.8) and exit 1."""
import ctypes
import errno
import sys

NR_LSM_LIST_MODULES = 461  # x86_64, arch/x86/entry/syscalls/syscall_64.tbl

libc = ctypes.CDLL(None, use_errno=True)
ids = (ctypes.c_uint64 * 64)()
size = ctypes.c_uint32(ctypes.sizeof(ids))
n = libc.syscall(ctypes.c_long(NR_LSM_LIST_MODULES), ids,
                 ctypes.byref(size), ctypes.c_uint32(0))
if n < 0:
    e = ctypes.get_errno()
    print(errno.errorcode.get(e, str(e)))
    sys.exit(1)
if size.value != n * 8:
    print(f"size {size.value} for {n} ids")
    sys.exit(1)
for i in range(n):
    print(ids[i])
