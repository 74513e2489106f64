// peers_cuda.cu: peer-cudnn, cuDNN's convolution as the GPU peer: one image, one channel, one
// filter (NCHW 1x1xHxW, KCRS 1x1xKxK), float32, with cuDNN's own zero padding (pad 0 for valid,
// K/2 for same with the zero border); CROSS_CORRELATION by default, CONVOLUTION for --flip.
// The image and output keep their row pitches (4-D descriptors with hStride = ld).
//
// cuDNN is loaded at run time: dlopen("libcudnn.so.9") (or the file $PARLAB_CUDNN names, tried
// first), the few functions called resolved with dlsym, so parlab starts and runs everywhere and
// only this peer fails, PL_ERR_UNSUPPORTED, where the library is missing. cudnn.h (found at
// configure time, PL_HAVE_CUDNN) gives the types and the prototypes only.
//
// The handle is the context's PL_CTX_HANDLE_CUDNN slot; the algorithm is chosen once per shape
// (cudnnFindConvolutionForwardAlgorithm, which times each one, with FMA math only, no TF32
// tensor cores: float32 is checked against float64 at float32's bound), kept in the context's
// state, and its workspace is the context's PL_CONV2D_WS device workspace. The FFT and
// non-fused Winograd algorithms are left out: their rounding error grows with the transform
// size, not with the K*K products of one output that the harness's bound covers.
#ifdef PL_HAVE_CUDNN
#include "kernels/conv2d/cuda_common.cuh"

#include <cudnn.h>
#include <dlfcn.h>
#include <limits.h>
#include <mutex>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUDNN_FUNCS(X)                                                                                                 \
    X(cudnnCreate)                                                                                                     \
    X(cudnnDestroy)                                                                                                    \
    X(cudnnSetStream)                                                                                                  \
    X(cudnnGetErrorString)                                                                                             \
    X(cudnnCreateTensorDescriptor)                                                                                     \
    X(cudnnDestroyTensorDescriptor)                                                                                    \
    X(cudnnSetTensor4dDescriptorEx)                                                                                    \
    X(cudnnCreateFilterDescriptor)                                                                                     \
    X(cudnnDestroyFilterDescriptor)                                                                                    \
    X(cudnnSetFilter4dDescriptor)                                                                                      \
    X(cudnnCreateConvolutionDescriptor)                                                                                \
    X(cudnnDestroyConvolutionDescriptor)                                                                               \
    X(cudnnSetConvolution2dDescriptor)                                                                                 \
    X(cudnnSetConvolutionMathType)                                                                                     \
    X(cudnnFindConvolutionForwardAlgorithm)                                                                            \
    X(cudnnConvolutionForward)

static struct CudnnApi {
    void *lib;
#define DECLARE(f) decltype(&::f) f;
    CUDNN_FUNCS(DECLARE)
#undef DECLARE
    char why[512]; // why it could not be loaded (empty: loaded)
} api;
static std::once_flag api_once;

static void load_api()
{
    // $PARLAB_CUDNN, then the loader's path, then the folder CMake found it in at build time
    // (a toolkit's lib folder that is not in the loader's cache).
    const char *env = getenv("PARLAB_CUDNN");
#ifdef PL_CUDNN_LIBDIR
    const char *built = PL_CUDNN_LIBDIR "/libcudnn.so.9";
#else
    const char *built = nullptr;
#endif
    const char *names[3] = {env && *env ? env : nullptr, "libcudnn.so.9", built};
    for (int n = 0; n < 3 && !api.lib; n++)
        if (names[n]) api.lib = dlopen(names[n], RTLD_NOW | RTLD_LOCAL);
    if (!api.lib) {
        snprintf(api.why, sizeof api.why, "peer-cudnn: cuDNN not found (libcudnn.so.9%s%s; set PARLAB_CUDNN)%s%s",
                 built ? " or " : "", built ? built : "", env && *env ? ": PARLAB_CUDNN=" : "", env && *env ? env : "");
        return;
    }
#define RESOLVE(f)                                                                                                     \
    if (!(api.f = (decltype(&::f))dlsym(api.lib, #f))) {                                                               \
        snprintf(api.why, sizeof api.why, "peer-cudnn: cuDNN library lacks %s (a cuDNN 9 is needed)", #f);            \
        return;                                                                                                        \
    }
    CUDNN_FUNCS(RESOLVE)
#undef RESOLVE
}

static pl_status need_api()
{
    std::call_once(api_once, load_api);
    if (api.why[0]) return pl_fail(PL_ERR_UNSUPPORTED, "%s", api.why);
    return PL_OK;
}

static void destroy_handle(void *h) { api.cudnnDestroy((cudnnHandle_t)h); }
static pl_status create_handle(pl_ctx *ctx, void **out)
{
    (void)ctx;
    cudnnHandle_t h;
    cudnnStatus_t st = api.cudnnCreate(&h);
    if (st != CUDNN_STATUS_SUCCESS)
        return pl_fail(PL_ERR_CUDA, "peer-cudnn: cudnnCreate: %s", api.cudnnGetErrorString(st));
    *out = (void *)h;
    return PL_OK;
}

// The algorithms chosen so far on this context, by shape (a small ring).
enum { ALGO_CACHE = 16 };
struct AlgoKey {
    int64_t H, W, ld_img, ld_out;
    int K, mode, flip;
};
struct AlgoState {
    struct {
        int used;
        AlgoKey key;
        cudnnConvolutionFwdAlgo_t algo;
        size_t ws_bytes;
    } e[ALGO_CACHE];
    int next;
};
static const char algo_state_key = 0;

// The descriptors of one call (host objects, made and freed per call: microseconds).
struct Descs {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    ~Descs()
    {
        if (x) api.cudnnDestroyTensorDescriptor(x);
        if (y) api.cudnnDestroyTensorDescriptor(y);
        if (w) api.cudnnDestroyFilterDescriptor(w);
        if (conv) api.cudnnDestroyConvolutionDescriptor(conv);
    }
};

#define CUDNN_TRY(call)                                                                                                \
    do {                                                                                                               \
        cudnnStatus_t st_ = (call);                                                                                    \
        if (st_ != CUDNN_STATUS_SUCCESS)                                                                               \
            return pl_fail(PL_ERR_CUDA, "peer-cudnn: %s: %s", #call, api.cudnnGetErrorString(st_));                  \
    } while (0)

static pl_status make_descs(const pl_conv2d_problem *p, Descs *d)
{
    const int H = (int)p->H, W = (int)p->W, OH = (int)p->OH, OW = (int)p->OW, K = p->K;
    const int pad = p->mode == PL_CONV2D_SAME ? K / 2 : 0;
    CUDNN_TRY(api.cudnnCreateTensorDescriptor(&d->x));
    CUDNN_TRY(api.cudnnCreateTensorDescriptor(&d->y));
    CUDNN_TRY(api.cudnnCreateFilterDescriptor(&d->w));
    CUDNN_TRY(api.cudnnCreateConvolutionDescriptor(&d->conv));
    const int ldi = (int)p->ld_img, ldo = (int)p->ld_out;
    CUDNN_TRY(api.cudnnSetTensor4dDescriptorEx(d->x, CUDNN_DATA_FLOAT, 1, 1, H, W, H * ldi, H * ldi, ldi, 1));
    CUDNN_TRY(api.cudnnSetTensor4dDescriptorEx(d->y, CUDNN_DATA_FLOAT, 1, 1, OH, OW, OH * ldo, OH * ldo, ldo, 1));
    CUDNN_TRY(api.cudnnSetFilter4dDescriptor(d->w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 1, 1, K, K));
    CUDNN_TRY(api.cudnnSetConvolution2dDescriptor(d->conv, pad, pad, 1, 1, 1, 1,
                                                  p->flip ? CUDNN_CONVOLUTION : CUDNN_CROSS_CORRELATION,
                                                  CUDNN_DATA_FLOAT));
    CUDNN_TRY(api.cudnnSetConvolutionMathType(d->conv, CUDNN_FMA_MATH));
    return PL_OK;
}

static bool algo_allowed(cudnnConvolutionFwdAlgo_t a)
{
    return a != CUDNN_CONVOLUTION_FWD_ALGO_FFT && a != CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING &&
           a != CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED;
}

static pl_status choose_algo(cudnnHandle_t h, pl_ctx *ctx, const pl_conv2d_problem *p, const Descs &d,
                             cudnnConvolutionFwdAlgo_t *algo, size_t *ws_bytes)
{
    AlgoState *s = nullptr;
    pl_status st = pl_ctx_state(ctx, &algo_state_key, sizeof(AlgoState), nullptr, (void **)&s);
    if (st != PL_OK) return st;
    AlgoKey key;
    memset(&key, 0, sizeof key);
    key.H = p->H, key.W = p->W, key.ld_img = p->ld_img, key.ld_out = p->ld_out;
    key.K = p->K, key.mode = p->mode, key.flip = p->flip;
    for (int i = 0; i < ALGO_CACHE; i++)
        if (s->e[i].used && memcmp(&s->e[i].key, &key, sizeof key) == 0) {
            *algo = s->e[i].algo, *ws_bytes = s->e[i].ws_bytes;
            return PL_OK;
        }
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int n = 0;
    CUDNN_TRY(api.cudnnFindConvolutionForwardAlgorithm(h, d.x, d.w, d.conv, d.y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
                                                       &n, perf));
    int pick = -1;
    for (int i = 0; i < n && pick < 0; i++) // sorted fastest first
        if (perf[i].status == CUDNN_STATUS_SUCCESS && algo_allowed(perf[i].algo)) pick = i;
    if (pick < 0) return pl_fail(PL_ERR_UNSUPPORTED, "peer-cudnn: cuDNN has no algorithm for this shape");
    const int slot = s->next;
    s->next = (s->next + 1) % ALGO_CACHE;
    s->e[slot].used = 1, s->e[slot].key = key, s->e[slot].algo = perf[pick].algo, s->e[slot].ws_bytes = perf[pick].memory;
    *algo = perf[pick].algo, *ws_bytes = perf[pick].memory;
    return PL_OK;
}

extern "C" pl_status pl_conv2d_peer_cudnn(const pl_run_args *a)
{
    const pl_conv2d_problem *p = (const pl_conv2d_problem *)a->problem;
    if (p->dtype != PL_F32) return pl_fail(PL_ERR_UNSUPPORTED, "peer-cudnn: cuDNN has no int32 convolution");
    if (p->mode == PL_CONV2D_SAME && p->border != PL_CONV2D_ZERO)
        return pl_fail(PL_ERR_UNSUPPORTED, "peer-cudnn: cuDNN pads with zeros only (border %s is not supported)",
                       p->border == PL_CONV2D_CLAMP ? "clamp" : "reflect");
    if (p->H * p->ld_img > INT_MAX || p->OH * p->ld_out > INT_MAX)
        return pl_fail(PL_ERR_UNSUPPORTED, "peer-cudnn: an image of 2^31 or more elements does not fit cuDNN's int strides");
    if (p->OH <= 0 || p->OW <= 0) return PL_OK;
    pl_status s = need_api();
    if (s != PL_OK) return s;
    void *hv = nullptr;
    if ((s = pl_ctx_handle(a->ctx, PL_CTX_HANDLE_CUDNN, create_handle, destroy_handle, &hv)) != PL_OK) return s;
    cudnnHandle_t h = (cudnnHandle_t)hv;
    CUDNN_TRY(api.cudnnSetStream(h, (cudaStream_t)a->stream));
    Descs d;
    if ((s = make_descs(p, &d)) != PL_OK) return s;
    cudnnConvolutionFwdAlgo_t algo;
    size_t ws_bytes = 0;
    if ((s = choose_algo(h, a->ctx, p, d, &algo, &ws_bytes)) != PL_OK) return s;
    void *ws = nullptr;
    if (ws_bytes && (s = pl_ctx_dev_workspace(a->ctx, PL_CONV2D_WS, ws_bytes, &ws)) != PL_OK) return s;
    const float one = 1.0f, zero = 0.0f;
    CUDNN_TRY(api.cudnnConvolutionForward(h, &one, d.x, a->data[0], d.w, a->data[1], d.conv, algo, ws, ws_bytes, &zero,
                                          d.y, a->data[2]));
    return PL_OK;
}
#endif /* PL_HAVE_CUDNN */
