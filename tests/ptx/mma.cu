// mma.cu -- hand-tuned Ampere tensor-core code: mma.sync for every shape and type rfsim
// runs, ldmatrix (x1/x2/x4, .trans) and, on sm_90, stmatrix, through inline asm as
// hand-written GEMMs use them, for the parser and compiler corpus.
#include <cstdint>
__device__ __forceinline__ unsigned smem(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}
__global__ void hgemm(const uint4 *g, float *c, int ktiles) {
  __shared__ __align__(16) unsigned short sa[2][16 * 16], sb[2][16 * 8];
  float d[4] = {0, 0, 0, 0};
  int l = threadIdx.x;
  for (int t = 0; t < ktiles; t++) {
    int s = t & 1;
    if (l < 32) ((uint4 *)sa[s])[l] = g[t * 48 + l];
    if (l < 16) ((uint4 *)sb[s])[l] = g[t * 48 + 32 + l];
    __syncthreads();
    unsigned a[4], b[2];
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(smem(&sa[s][(l % 16) * 16 + (l / 16) * 8])));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(b[0]), "=r"(b[1]) : "r"(smem(&sb[s][(l % 16) * 8])));
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    __syncthreads();
  }
  for (int i = 0; i < 4; i++) c[l * 4 + i] = d[i];
}
__global__ void forms(const unsigned *g, unsigned *o, const double *gd, double *od) {
  __shared__ __align__(16) unsigned short s[512];
  int l = threadIdx.x;
  s[l] = (unsigned short)g[l];
  __syncthreads();
  unsigned r[16], x;
  for (int i = 0; i < 16; i++) r[i] = g[l + 32 * i];
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(x)
               : "r"(smem(&s[(l % 8) * 8])));
  r[0] ^= x;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared::cta.b16 {%0}, [%1];" : "=r"(x)
               : "r"(smem(&s[(l % 8) * 8])));
  r[1] ^= x;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]) : "r"(smem(&s[l * 8])));
  unsigned h[2];
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, "
               "{%6, %7}, {%8, %9};" : "=r"(h[0]), "=r"(h[1])
               : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]),
                 "r"(r[6]), "r"(r[7]));
  float f[4] = {0, 1, 2, 3};
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
               "{%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "r"(r[8]), "r"(r[9]), "r"(h[0]));
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0, %1}, "
               "{%2, %3}, {%4}, {%0, %1};"
               : "+r"(h[0]), "+r"(h[1]) : "r"(r[8]), "r"(r[9]), "r"(r[10]));
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3])
               : "r"(r[10]), "r"(r[11]), "r"(r[12]), "r"(r[13]), "r"(r[14]), "r"(r[15]));
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
               "{%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "r"(r[1]), "r"(r[2]), "r"(r[3]));
  int q[4] = {1, 2, 3, 4};
  asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, "
               "{%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+r"(q[0]), "+r"(q[1]), "+r"(q[2]), "+r"(q[3]) : "r"(r[4]), "r"(r[5]), "r"(r[6]));
  asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+r"(q[0]), "+r"(q[1]), "+r"(q[2]), "+r"(q[3])
               : "r"(r[7]), "r"(r[8]), "r"(r[9]), "r"(r[10]), "r"(r[11]), "r"(r[12]));
  double dd[2] = {gd[l], gd[l + 32]};
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
               : "+d"(dd[0]), "+d"(dd[1]) : "d"(gd[l + 64]), "d"(gd[l + 96]));
  od[l] = dd[0] + dd[1];
#if __CUDA_ARCH__ >= 900
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};"
               :: "r"(smem(&s[l * 8])), "r"(q[0]), "r"(q[1]) : "memory");
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared::cta.b16 [%0], {%1, %2, %3, %4};"
               :: "r"(smem(&s[256 + l * 8])), "r"(q[2]), "r"(q[3]), "r"(h[0]), "r"(h[1])
               : "memory");
  __syncthreads();
  q[0] += s[l ^ 5];
#endif
  for (int i = 0; i < 4; i++) o[l * 4 + i] = __float_as_uint(f[i]) ^ q[i];
}
