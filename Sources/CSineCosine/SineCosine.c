// The target's code is its header's inline function; SwiftPM needs a source file to build a C target.
#include "SineCosine.h"
