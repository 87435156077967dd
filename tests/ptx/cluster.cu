// cluster.cu -- sm_90 function directives: thread-block clusters
// (.reqnctapercluster, .explicitcluster, .maxclusterrank), __maxnreg__,
// and __launch_bounds__ with all three arguments.
__global__ void __cluster_dims__(2, 1, 1) clustered(float *o)
{
	o[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
}

__global__ void __launch_bounds__(256, 2, 4) bounded(float *o)
{
	o[threadIdx.x] += 1.0f;
}

__global__ void __maxnreg__(32) fewregs(float *o, int n)
{
	float s = 0;
	for (int i = 0; i < n; i++) s += o[i] * o[i + 1];
	o[threadIdx.x] = s;
}
