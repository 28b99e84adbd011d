// Header of the include-path feature kernel (metal_src/features/
// feat_include_path.metal), found through `-I metal_src/include`. It
// includes its neighbour with a quoted include, resolved beside this file.
#pragma once
#include "coefficients.h"

inline float polynomial(float x) {
    float acc = 0.0f;
    for (int k = kDegree; k >= 0; --k) {
        acc = acc * x + kCoefficients[k];
    }
    return acc;
}
