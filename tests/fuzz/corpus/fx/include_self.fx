float a;
#include "self.fxsub"
#include "d/self.fxsub"
