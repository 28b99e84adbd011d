// Coefficients of polynomial.h, c0 + c1 x + c2 x^2 + c3 x^3. Included twice
// (by polynomial.h and by the kernel): #pragma once keeps one definition.
#pragma once

constant int kDegree = 3;
constant float kCoefficients[4] = {1.0f, -2.0f, 0.5f, 0.25f};
