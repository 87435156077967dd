// mathlib.cu -- libdevice math that expands into large device code:
// single and double precision transcendental functions.
__global__ void mathf(float *o, const float *a)
{
	int t = threadIdx.x;
	float x = a[t], y = a[t + 1];
	o[t] = sinf(x) + cosf(y) + expf(x) + logf(y) + powf(x, y) + erff(x) + tanhf(y) +
	       atan2f(x, y) + sqrtf(x) + cbrtf(y) + lgammaf(x) + fmodf(x, y) + tanf(x) +
	       asinf(y) + expm1f(x) + log1pf(y) + hypotf(x, y) + erfcinvf(y) + exp10f(x);
	o[t + 1] = __sinf(x) + __cosf(y) + __expf(x) + __logf(y) + __powf(x, y) + __tanf(x);
	float s, c;
	sincosf(x, &s, &c);
	o[t + 2] = s * c + normf(2, a) + rnorm3df(x, y, s) + j0f(x);
}

__global__ void mathd(double *o, const double *a)
{
	int t = threadIdx.x;
	double x = a[t], y = a[t + 1];
	o[t] = sin(x) + cos(y) + exp(x) + log(y) + pow(x, y) + erf(x) + tanh(y) + atan2(x, y) +
	       cbrt(y) + fmod(x, y) + rsqrt(x) + tgamma(y) + log2(x) + exp2(y);
	o[t + 1] = rint(x) + floor(y) + trunc(x) + ceil(y) + round(x) + nearbyint(y) + ldexp(x, 3);
}
