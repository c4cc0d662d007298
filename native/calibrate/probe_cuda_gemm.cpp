// CUDA backend GEMM probe: cuBLASLt BF16 and FP8 E4M3 (per-tensor scales, fast accumulation on and
// off) over square and scenario shapes, seeded random operands rotated past L2, several heuristic
// algorithms timed and the fastest kept (one that fails is skipped), NVML clock and power per row.
#include <cublasLt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "control.hpp"
#include "cuda_common.hpp"
#include "faults.hpp"
#include "probes.hpp"
#include "tslab/errors.hpp"

namespace tslab::calibrate {

namespace {

void lt_check(cublasStatus_t s, const char* what) {
    if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(fmt::format("{}: cuBLAS status {}", what, static_cast<int>(s)));
}

constexpr std::size_t workspace_bytes = 32u << 20;
constexpr int max_algos = 8;

struct gemm_kind {
    cudaDataType_t in;
    const char* dtype;  // recorded
    const char* label;  // printed
    bool fast_accum;
};

// D = A·B with A stored k×m and used transposed ("TN", the layout FP8 requires), fp32 accumulation,
// BF16 output; FP8 reads per-tensor scales from device memory (CUBLASLT_MATMUL_DESC_{A,B}_SCALE_POINTER).
struct lt_gemm {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    std::vector<cublasLtMatmulHeuristicResult_t> algos;

    lt_gemm(cublasLtHandle_t h, const gemm_shape& s, const gemm_kind& k, const float* scale) {
        lt_check(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
        const cublasOperation_t t = CUBLAS_OP_T, n = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t);
        cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &n, sizeof n);
        if (k.in == CUDA_R_8F_E4M3) {
            cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale, sizeof scale);
            cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scale, sizeof scale);
            const std::int8_t fast = k.fast_accum ? 1 : 0;
            cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast);
        }
        lt_check(cublasLtMatrixLayoutCreate(&a, k.in, s.k, s.m, s.k), "layout A");
        lt_check(cublasLtMatrixLayoutCreate(&b, k.in, s.k, s.n, s.k), "layout B");
        lt_check(cublasLtMatrixLayoutCreate(&c, CUDA_R_16BF, s.m, s.n, s.m), "layout C");
        cublasLtMatmulPreference_t pref;
        lt_check(cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate");
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes, sizeof workspace_bytes);
        algos.resize(max_algos);
        int found = 0;
        if (cublasLtMatmulAlgoGetHeuristic(h, op, a, b, c, c, pref, max_algos, algos.data(), &found) != CUBLAS_STATUS_SUCCESS) found = 0;
        algos.resize(static_cast<std::size_t>(found));
        cublasLtMatmulPreferenceDestroy(pref);
    }
    ~lt_gemm() {
        cublasLtMatrixLayoutDestroy(a), cublasLtMatrixLayoutDestroy(b), cublasLtMatrixLayoutDestroy(c);
        cublasLtMatmulDescDestroy(op);
    }
};

std::size_t elem_bytes(cudaDataType_t t) { return t == CUDA_R_8F_E4M3 ? 1 : 2; }

// Operand sets: enough that together they exceed 3× the L2 cache (so no GEMM reads the previous
// one's operands from L2), at least 2, at most 32, and no more than 40 % of free memory.
int operand_sets(const gemm_shape& s, cudaDataType_t in) {
    int l2 = 0, dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
    std::size_t free = 0, total = 0;
    cudaMemGetInfo(&free, &total);
    const double set = static_cast<double>((s.m * s.k + s.k * s.n) * static_cast<std::int64_t>(elem_bytes(in)) + s.m * s.n * 2);
    const int want = static_cast<int>(std::ceil(3.0 * l2 / set));
    const int fits = static_cast<int>(0.4 * static_cast<double>(free) / set);
    if (fits < 1)
        throw input_error("--scenario",
                          msg("calibrate.gemm_too_large", {{"m", std::to_string(s.m)}, {"n", std::to_string(s.n)}, {"k", std::to_string(s.k)}}));
    return std::min({std::max(want, 2), 32, std::max(fits, 1)});
}

struct operands {
    std::vector<device_buffer> A, B, C;
    operands(const gemm_shape& s, cudaDataType_t in, int sets, int rank, cudaStream_t st) {
        const bool fp8 = in == CUDA_R_8F_E4M3;
        for (int i = 0; i < sets; ++i) {
            A.emplace_back(static_cast<std::size_t>(s.m * s.k) * elem_bytes(in));
            B.emplace_back(static_cast<std::size_t>(s.k * s.n) * elem_bytes(in));
            C.emplace_back(static_cast<std::size_t>(s.m * s.n) * 2);
            const std::uint64_t seed = 0x7e57ULL * 1000003 + static_cast<std::uint64_t>(i) * 7919 + static_cast<std::uint64_t>(rank);
            cuda_check(fill_random(A.back().get(), static_cast<std::size_t>(s.m * s.k), fp8, seed, st), "fill A");
            cuda_check(fill_random(B.back().get(), static_cast<std::size_t>(s.k * s.n), fp8, seed ^ 0xB, st), "fill B");
        }
        cuda_check(cudaStreamSynchronize(st), "cudaStreamSynchronize");
    }
};

struct gemm_context {
    cublasLtHandle_t h;
    cudaStream_t s;
    void* ws;
    const float* scale;
};

// Times each heuristic briefly and returns the index of the fastest that ran; -1 when none did.
int best_algo(const gemm_context& cx, lt_gemm& g, operands& ops, int sets, const options& o) {
    const float alpha = 1, beta = 0;
    int best = -1;
    double best_t = 0;
    for (std::size_t i = 0; i < g.algos.size(); ++i) {
        auto body = [&](int it) {
            const auto j = static_cast<std::size_t>(it % sets);
            lt_check(cublasLtMatmul(cx.h, g.op, &alpha, ops.A[j].get(), g.a, ops.B[j].get(), g.b, &beta, ops.C[j].get(), g.c, ops.C[j].get(), g.c,
                                    &g.algos[i].algo, cx.ws, workspace_bytes, cx.s),
                     "cublasLtMatmul");
        };
        try {
            time_on_stream(cx.s, 1, body, o.op_timeout_s);
            const double t = time_on_stream(cx.s, std::max(2, o.iters / 4), body, o.op_timeout_s);
            if (best < 0 || t < best_t) best = static_cast<int>(i), best_t = t;
        } catch (const std::runtime_error&) {
            cudaGetLastError();  // this algorithm failed (e.g. a workspace or alignment limit): try the next
        }
    }
    return best;
}

void one_shape(world& w, const options& o, const gemm_context& cx, const gemm_shape& shape, const gemm_kind& k, recorder& rec) {
    point_begin(fmt::format("gemm {} {}x{}x{}", k.label, shape.m, shape.n, shape.k));
    inject_fault(w.rank, "gemm");
    lt_gemm g(cx.h, shape, k, cx.scale);
    const int sets = operand_sets(shape, k.in);
    operands ops(shape, k.in, sets, w.rank, cx.s);
    const int algo = g.algos.empty() ? -1 : best_algo(cx, g, ops, sets, o);
    if (w.any(algo < 0)) {  // every rank skips together
        if (w.rank == 0)
            std::printf("# %s %lldx%lldx%lld: no cuBLASLt algorithm ran, skipped\n", k.label, static_cast<long long>(shape.m),
                        static_cast<long long>(shape.n), static_cast<long long>(shape.k));
        return point_end();
    }
    const float alpha = 1, beta = 0;
    auto body = [&](int i) {
        const auto j = static_cast<std::size_t>(i % sets);
        lt_check(cublasLtMatmul(cx.h, g.op, &alpha, ops.A[j].get(), g.a, ops.B[j].get(), g.b, &beta, ops.C[j].get(), g.c, ops.C[j].get(), g.c,
                                &g.algos[static_cast<std::size_t>(algo)].algo, cx.ws, workspace_bytes, cx.s),
                 "cublasLtMatmul");
    };
    if (o.warmup > 0) time_on_stream(cx.s, o.warmup, body, o.op_timeout_s);
    const timing t = measure(w, o.repeats, 3, [&] {
        w.barrier();
        return time_on_stream(cx.s, o.iters, body, o.op_timeout_s);
    });
    point_end();
    if (t.stopped) return;
    int dev = 0;
    cudaGetDevice(&dev);
    const gpu_reading now = read_gpu(dev);
    const double flops = 2.0 * static_cast<double>(shape.m) * static_cast<double>(shape.n) * static_cast<double>(shape.k);
    if (w.rank != 0) return;
    std::fputs(gemm_row(shape, k.label, t, flops / t.median_s).c_str(), stdout);
    std::printf("  %58s algo %d of %zu, %d operand sets, SM %.0f MHz, %.0f W\n", "", algo + 1, g.algos.size(), sets, now.sm_clock_mhz, now.power_w);
    if (std::string(k.label) != "fp8-slow")  // the fast-accumulation FP8 result is the recorded "fp8" (as TE's forward GEMMs)
        rec.add_gemm({shape.m, shape.n, shape.k, k.dtype, t.median_s, flops / t.median_s, now.sm_clock_mhz, now.power_w});
}

}  // namespace

void probe_cuda_gemm(world& w, const options& o, const device_identity& d, const std::vector<gemm_shape>& extra, recorder& rec) {
    std::vector<gemm_shape> shapes;
    for (std::int64_t n : o.quick ? std::vector<std::int64_t>{1024, 4096} : std::vector<std::int64_t>{256, 512, 1024, 2048, 4096, 8192})
        shapes.push_back({n, n, n, "square"});
    shapes.insert(shapes.end(), extra.begin(), extra.end());
    gemm_context cx{};
    lt_check(cublasLtCreate(&cx.h), "cublasLtCreate");
    cuda_check(cudaStreamCreate(&cx.s), "cudaStreamCreate");
    device_buffer ws(workspace_bytes), scale(sizeof(float));
    const float one = 1.0f;  // per-tensor scales of 1: the operands are already in E4M3 range
    cuda_check(cudaMemcpy(scale.get(), &one, sizeof one, cudaMemcpyHostToDevice), "cudaMemcpy");
    cx.ws = ws.get(), cx.scale = static_cast<const float*>(scale.get());
    std::vector<gemm_kind> kinds = {{CUDA_R_16BF, "bf16", "bf16", false}};
    if (d.major >= 9) {  // FP8 tensor cores: Hopper and newer
        kinds.push_back({CUDA_R_8F_E4M3, "fp8", "fp8", true});
        kinds.push_back({CUDA_R_8F_E4M3, "fp8", "fp8-slow", false});  // fast accumulation off (TE's backward)
    }
    for (const auto& k : kinds) {
        if (w.rank == 0)
            std::fputs(
                gemm_header(fmt::format("gemm {}: cuBLASLt TN, fp32 accumulate{}, random operands, best of the heuristics, "
                                        "timer cuda_events",
                                        k.label, k.in == CUDA_R_8F_E4M3 ? (k.fast_accum ? ", fast accumulation" : ", no fast accumulation") : ""))
                    .c_str(),
                stdout);
        for (const auto& shape : shapes) {
            if (stopper().agreed(w)) break;
            one_shape(w, o, cx, shape, k, rec);
        }
    }
    cudaStreamDestroy(cx.s);
    cublasLtDestroy(cx.h);
}

}  // namespace tslab::calibrate
