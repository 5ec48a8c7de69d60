// tests/fx/subset0.fx - tests/fx/subset.fx's material-0 technique alone (its
// Subset = "0"): material 0 red, the others built-in.
#define SUBSET_ONLY
#include "subset.fx"
