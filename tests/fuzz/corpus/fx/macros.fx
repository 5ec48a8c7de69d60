#define N 4
#define SQ(x) ((x) * (x))
#define STR(x) #x
#define CAT(a, b) a##b
#define DECL(t, n) t CAT(P, n) : CONTROLOBJECT < string name = STR(n.pmx); >;
#define V(...) float v(__VA_ARGS__) { return 0; }
#if defined(N) && N * 2 == 8 && !defined NOPE
DECL(float3, Light)
#elif 1
#error no
#else
int x;
#endif
#ifndef N
#else
float A = SQ(N + \
 1);
#endif
V(float a, float b)
#undef N
#line 40 "other.fx"
#pragma warning(disable: 3571)
#include "sub\other.fxsub"
