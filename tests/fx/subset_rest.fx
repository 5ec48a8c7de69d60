// tests/fx/subset_rest.fx - tests/fx/subset.fx's picture the other way round:
// Subset = "1-" blue first, then red for what it leaves (material 0).
#define SUBSET_REST_FIRST
#include "subset.fx"
