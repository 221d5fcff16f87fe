#!/bin/bash
# Print the lines of a kernel log that show a splat; exit 0 if there are any.
# Used on the whole console after a VM run and on each case's dmesg.
pat='BUG:|WARNING:|Oops|general protection|KASAN|UBSAN|hung_task|blocked for more than'
pat+='|Call Trace|Kernel panic|soft lockup|hard LOCKUP|rcu_sched self-detected|rcu: INFO'
pat+='|possible circular locking|possible recursive locking|inconsistent lock state'
pat+='|kmemleak: [0-9]+ new suspected|sleeping function called from invalid context'
[ -f "$1" ] || exit 1
grep -aE "$pat" "$1" | head -n 20 | grep .
