// CUDA backend GEMM probe: cuBLASLt BF16 (and FP8 E4M3 on sm_90+) over square and scenario shapes.
#include <cublasLt.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "cuda_common.hpp"
#include "probes.hpp"

namespace tslab::calibrate {

namespace {

void lt_check(cublasStatus_t s, const char* what) {
    if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(fmt::format("{}: cuBLAS status {}", what, static_cast<int>(s)));
}

constexpr std::size_t workspace_bytes = 32u << 20;

// D = A·B with A stored k×m and used transposed ("TN", the layout FP8 requires), fp32 accumulation.
struct lt_gemm {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulHeuristicResult_t algo{};
    bool ok = false;

    lt_gemm(cublasLtHandle_t h, const gemm_shape& s, cudaDataType_t in) {
        lt_check(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
        const cublasOperation_t t = CUBLAS_OP_T, n = CUBLAS_OP_N;
        cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t);
        cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &n, sizeof n);
        lt_check(cublasLtMatrixLayoutCreate(&a, in, s.k, s.m, s.k), "layout A");
        lt_check(cublasLtMatrixLayoutCreate(&b, in, s.k, s.n, s.k), "layout B");
        lt_check(cublasLtMatrixLayoutCreate(&c, CUDA_R_16BF, s.m, s.n, s.m), "layout C");
        cublasLtMatmulPreference_t pref;
        lt_check(cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate");
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes,
                                             sizeof workspace_bytes);
        int found = 0;
        ok = cublasLtMatmulAlgoGetHeuristic(h, op, a, b, c, c, pref, 1, &algo, &found) == CUBLAS_STATUS_SUCCESS && found > 0;
        cublasLtMatmulPreferenceDestroy(pref);
    }
    ~lt_gemm() {
        cublasLtMatrixLayoutDestroy(a), cublasLtMatrixLayoutDestroy(b), cublasLtMatrixLayoutDestroy(c);
        cublasLtMatmulDescDestroy(op);
    }
};

std::size_t elem_bytes(cudaDataType_t t) { return t == CUDA_R_8F_E4M3 ? 1 : 2; }

void one_shape(world& w, const options& o, cublasLtHandle_t h, cudaStream_t s, void* ws, const gemm_shape& shape,
               cudaDataType_t in, const char* dtype, recorder& rec) {
    lt_gemm g(h, shape, in);
    if (w.any(!g.ok)) {  // every rank skips together
        if (w.rank == 0) std::printf("# %s %lldx%lldx%lld: no cuBLASLt algorithm, skipped\n", dtype, static_cast<long long>(shape.m),
                                     static_cast<long long>(shape.n), static_cast<long long>(shape.k));
        return;
    }
    const int k = 2;  // two operand sets, alternated, so that L2 does not keep the previous result
    std::vector<device_buffer> A, B, C;
    for (int i = 0; i < k; ++i) {
        A.emplace_back(static_cast<std::size_t>(shape.m * shape.k) * elem_bytes(in));
        B.emplace_back(static_cast<std::size_t>(shape.k * shape.n) * elem_bytes(in));
        C.emplace_back(static_cast<std::size_t>(shape.m * shape.n) * 2);
        // 0x3C: bf16 ≈ 0.0115, e4m3 = 1.5; finite, non-zero operands.
        cuda_check(cudaMemset(A.back().get(), 0x3C, static_cast<std::size_t>(shape.m * shape.k) * elem_bytes(in)), "cudaMemset");
        cuda_check(cudaMemset(B.back().get(), 0x3C, static_cast<std::size_t>(shape.k * shape.n) * elem_bytes(in)), "cudaMemset");
    }
    const float alpha = 1, beta = 0;
    auto body = [&](int i) {
        const auto j = static_cast<std::size_t>(i % k);
        lt_check(cublasLtMatmul(h, g.op, &alpha, A[j].get(), g.a, B[j].get(), g.b, &beta, C[j].get(), g.c, C[j].get(), g.c,
                                &g.algo.algo, ws, workspace_bytes, s),
                 "cublasLtMatmul");
    };
    if (o.warmup > 0) time_on_stream(s, o.warmup, body);
    const timing t = measure(w, o.repeats, 3, [&] { w.barrier(); return time_on_stream(s, o.iters, body); });
    const double flops = 2.0 * static_cast<double>(shape.m) * static_cast<double>(shape.n) * static_cast<double>(shape.k);
    if (w.rank == 0) {
        std::fputs(gemm_row(shape, dtype, t, flops / t.median_s).c_str(), stdout);
        rec.add_gemm({shape.m, shape.n, shape.k, dtype, t.median_s, flops / t.median_s});
    }
}

}  // namespace

void probe_cuda_gemm(world& w, const options& o, const device_identity& d, const std::vector<gemm_shape>& extra,
                     recorder& rec) {
    std::vector<gemm_shape> shapes;
    for (std::int64_t n : o.quick ? std::vector<std::int64_t>{1024, 4096} : std::vector<std::int64_t>{256, 512, 1024, 2048, 4096, 8192})
        shapes.push_back({n, n, n, "square"});
    shapes.insert(shapes.end(), extra.begin(), extra.end());
    cublasLtHandle_t h;
    lt_check(cublasLtCreate(&h), "cublasLtCreate");
    cudaStream_t s;
    cuda_check(cudaStreamCreate(&s), "cudaStreamCreate");
    device_buffer ws(workspace_bytes);
    std::vector<std::pair<cudaDataType_t, const char*>> types = {{CUDA_R_16BF, "bf16"}};
    if (d.major >= 9) types.emplace_back(CUDA_R_8F_E4M3, "fp8");  // FP8 tensor cores: Hopper and newer
    for (const auto& [type, name] : types) {
        if (w.rank == 0) std::fputs(gemm_header(fmt::format("gemm {}: cuBLASLt TN, fp32 accumulate, timer cuda_events", name)).c_str(), stdout);
        for (const auto& shape : shapes) {
            if (stopper().agreed(w)) break;
            one_shape(w, o, h, s, ws.get(), shape, type, name, rec);
        }
    }
    cudaStreamDestroy(s);
    cublasLtDestroy(h);
}

}  // namespace tslab::calibrate
