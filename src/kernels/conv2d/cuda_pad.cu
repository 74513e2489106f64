// cuda_pad.cu: the border rule on the device, for the distributed layer's GPU path
// (src/distributed/nccl/nccl_window.c): the cells of a rank's window that lie outside the image, filled as
// 'same' mode reads them (zero, clamp, reflect) from cells inside it, so that 'valid' on the
// padded window is 'same' on the image. A thread a cell of up to four bands of the window;
// each reads a cell inside the image (never one the launch writes), so no ordering is needed.
#include "kernels/conv2d/cuda_common.cuh"

struct pad_bands {
    int64_t b[4][4]; // r0, r1, c0, c1 in window coordinates
};

template <typename T>
static __global__ void pad_kernel(T *win, int64_t ld, int64_t oy, int64_t ox, int64_t H, int64_t W, int border,
                                  pad_bands bands)
{
    const int64_t *b = bands.b[blockIdx.y];
    const int64_t cols = b[3] - b[2], n = (b[1] - b[0]) * cols, step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += step) {
        const int64_t y = b[0] + i / cols, x = b[2] + i % cols, gy = y + oy, gx = x + ox;
        if (gy >= 0 && gy < H && gx >= 0 && gx < W) continue; // inside the image: data, not border
        const int64_t sy = pl_conv2d_border_index(border, gy, H), sx = pl_conv2d_border_index(border, gx, W);
        win[y * ld + x] = sy < 0 || sx < 0 ? T(0) : win[(sy - oy) * ld + (sx - ox)];
    }
}

extern "C" pl_status pl_conv2d_pad_device(void *win, pl_dtype dtype, int64_t ld, int64_t oy, int64_t ox, int64_t H,
                                          int64_t W, int border, const int64_t bands[][4], int n, void *stream)
{
    pad_bands pb;
    int64_t most = 0;
    int m = 0;
    for (int i = 0; i < n && i < 4; i++) {
        const int64_t cells = (bands[i][1] - bands[i][0]) * (bands[i][3] - bands[i][2]);
        if (bands[i][1] <= bands[i][0] || bands[i][3] <= bands[i][2]) continue;
        for (int j = 0; j < 4; j++) pb.b[m][j] = bands[i][j];
        m++;
        if (cells > most) most = cells;
    }
    if (!m) return PL_OK;
    const int threads = 256;
    const int64_t want = (most + threads - 1) / threads;
    const dim3 blocks((unsigned)(want < 1024 ? want : 1024), (unsigned)m);
    cudaStream_t st = (cudaStream_t)stream;
    if (dtype == PL_I32) pad_kernel<int><<<blocks, threads, 0, st>>>((int *)win, ld, oy, ox, H, W, border, pb);
    else pad_kernel<float><<<blocks, threads, 0, st>>>((float *)win, ld, oy, ox, H, W, border, pb);
    return conv2d_launched("conv2d: the border on the device");
}
