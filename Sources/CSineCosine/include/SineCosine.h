#ifndef C_SINE_COSINE_H
#define C_SINE_COSINE_H

/// The sine and cosine of one angle at once, as glibc's `sincos` (a GNU extension Swift's Glibc module does not
/// show) computes them: one argument reduction instead of two, and the same bits as `sin` and `cos` apart, since
/// glibc computes all three with the same routines.
static inline void travel411_sincos(double x, double *sine, double *cosine) { __builtin_sincos(x, sine, cosine); }

#endif
