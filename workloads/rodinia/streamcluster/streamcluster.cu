// Streamcluster (Rodinia): online k-median clustering of a stream of points. The host runs the
// local search (speedy initial solution, then facility-location passes of `pgain` calls); every
// pgain evaluates opening a candidate centre x on the GPU with one launch of this kernel.
// Written for gtlm from the algorithm's description.
//
// Original launch shape, kept: 512-thread CTAs, thread = point, grid = ceil(num/512) CTAs split
// so that each grid dimension stays <= 65536 (CTA id = blockIdx.x + gridDim.x * blockIdx.y).
// Thread p computes its weighted squared distance to x over `dim` coordinates stored
// dimension-major (coord[i*num + p]: coalesced; coord[i*num + x]: one broadcast line per
// warp-load), reads its 32-byte array-of-structs point record (weight, assign, cost: three
// 32-B-strided loads per thread), and either marks itself for reassignment and adds the saving
// to work_mem[p*stride + K], or adds the loss to work_mem[p*stride + center_table[assign]]
// (a gather through center_table, then a scattered read-modify-write in its own row).
// Nothing needed fixing (every access stays inside the buffers).

struct Point {
    float weight;
    float *coord; // host pointer in the original's array of structs, unused on the device
    long assign;  // index of the centre the point is assigned to
    float cost;   // weighted distance to that centre
};

extern "C" __global__ void kernel_compute_cost(int num, int dim, long x, const Point *p, int K, int stride,
                                               const float *coord, float *work_mem, const int *center_table,
                                               bool *switch_membership)
{
    int bid = blockIdx.x + gridDim.x * blockIdx.y;
    int tid = blockDim.x * bid + threadIdx.x;
    if (tid < num) {
        float *lower = &work_mem[tid * stride];
        float d = 0;
        for (int i = 0; i < dim; i++) {
            float t = coord[i * num + tid] - coord[i * num + x];
            d += t * t;
        }
        float x_cost = d * p[tid].weight;
        if (x_cost < p[tid].cost) {
            switch_membership[tid] = 1;
            lower[K] += x_cost - p[tid].cost;
        } else {
            lower[center_table[p[tid].assign]] += p[tid].cost - x_cost;
        }
    }
}
