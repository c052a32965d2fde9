"""Every limit a rules file must keep, in one place (docs/language.md "Limits" and
docs/engine.md "Limits at run time" list them for rules authors).

A rules file is someone else's code: none of these stops a real game (the largest bundled
game is far inside each), and each keeps a hostile or mistaken file from taking the
machine's time or memory. Text and syntax limits are checked where the file is read
(rules_text.py), sizes where declarations are checked (checker/), the rest as the rules
run (runtime/helpers.py, runtime/runner.py).
"""

# the text of a rules file
MAX_FILE_BYTES = 2_000_000        # one file (the largest bundled one is ~60 kB)
MAX_NESTING = 48                  # levels of the syntax tree (the bundled games reach 20)
MAX_CHAIN = 100                   # terms of one chain of + and -, of * / %, of `and`, of `or`
MAX_INT_DIGITS = 15               # an integer literal is below 10**15
MAX_STRING = 10_000               # characters of one string literal

# declarations
MAX_PLAYERS = 32                  # seats of a game or a module
MAX_GRID_CELLS = 10_000           # rows x columns of one grid (a 100 x 100 board)
MAX_COPIES = 10_000               # copies of one component kind
MAX_ZONE_SLOTS = 10_000           # slots of a row
MAX_OPTIONS = 1_000_000           # values one action parameter or one choice may take
MAX_SELECTION = 20                # values in one selection (subsets(Z, lo, hi): hi at most)
MAX_ACTION_MOVES = 10_000_000     # moves one action may have (its parameters' values multiplied)

# running
MAX_RANGE = 1_000_000             # values of one range(a, b)
MAX_INT = 2 ** 53                 # a number the rules store or multiply stays within -MAX_INT..MAX_INT
STEP_BUDGET = 2_000_000           # blocks run, and rounds of the rules' loops, between two decisions
MAX_SECONDS = 30                  # time between two decisions, the last bound (runtime/watchdog.py)
