#!/bin/bash
# Print the lines of a kernel log that show a splat; exit 0 if there are any.
# Used on the whole console after a VM run and on each case's dmesg.
#
# SPLAT_EXPECT_TRACES=1 leaves out the bare "Call Trace" line, for cases that
# provoke reports which print a stack by design (the OOM killer, allocation
# failure warnings): every real splat still matches by its own header (BUG,
# WARNING, KASAN, lockdep, hung task, lockups, RCU stalls, kmemleak).
pat='BUG:|WARNING:|Oops|general protection|KASAN|UBSAN|hung_task|blocked for more than'
pat+='|Kernel panic|soft lockup|hard LOCKUP|rcu_sched self-detected|rcu: INFO'
pat+='|possible circular locking|possible recursive locking|inconsistent lock state'
pat+='|kmemleak: [0-9]+ new suspected|sleeping function called from invalid context'
pat+='|suspicious RCU usage|lock held when returning|bad unlock balance'
# a BUG_ON on 6.1 ("kernel BUG at", then "invalid opcode: 0000 [#1]": no
# "Oops" there), so that it fails a run without its "Call Trace" line too
pat+='|kernel BUG at|invalid opcode: [0-9]'
[ "${SPLAT_EXPECT_TRACES:-0}" = 1 ] || pat+='|Call Trace'
[ -f "$1" ] || exit 1
grep -aE "$pat" "$1" | head -n 20 | grep .
