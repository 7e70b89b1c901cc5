"""Help lines of the commands whose own modules are heavy to import: ``subtok --help``
names them from here without importing them, and each command's module reads its line from
here too, so the two never differ. This module imports nothing (``subtok_core.check``'s
package imports the trainers, so a line kept there would cost ``subtok --help`` a second).
"""

CHECK_HELP = "compare your own BPE's merges with the reference run: the first difference and why"
CHECK_EXIT = (
    "Exit status: 0 when your merges are the reference's, 1 when they differ, 2 when a file "
    "cannot be read or an option is wrong (so a course's CI can grade with it)."
)
