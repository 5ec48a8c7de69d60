#define a0 x x
#define a1 a0 a0
#define a2 a1 a1
#define a3 a2 a2
#define a4 a3 a3
#define a5 a4 a4
float v = a5;
