// How a multi-rank run ends early without hanging: stop and failure notices between ranks, and a
// watchdog thread per rank that enforces -T, forwards signals and writes the partial profile.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "harness.hpp"

namespace tslab::calibrate {

// The point being measured, for the -T watchdog and the messages ("allgather 2 ranks, intra, 1M").
void point_begin(const std::string& what);
void point_end();

class run_control {
public:
    // Starts the watchdog. Rank 0 writes partial profiles to `o.out` through `rec`.
    run_control(world& w, recorder& rec, const options& o);
    ~run_control();  // stops and joins the watchdog
    run_control(const run_control&) = delete;
    run_control& operator=(const run_control&) = delete;

    // This rank failed: prints "rank R on HOST: error: ...", tells every other rank (which stop
    // and print why), lets rank 0 write the partial profile ("complete": false, the reason in
    // provenance.stop_reason), and exits with `code`. Never returns; callable from any thread.
    [[noreturn]] void fail(int code, const std::string& message);

private:
    world& w_;
    recorder& rec_;
    const options& o_;
    std::atomic<bool> done_{false}, written_{false}, stop_announced_{false};
    std::mutex poll_m_;
    void* pending_ = nullptr;  // the posted receive (MPI builds)
    std::thread dog_;

    void watch();
    void poll_once();
    void on_stop_request();
    [[noreturn]] void on_peer_failure(int rank, const std::string& host, int code, const std::string& text, bool written);
    void announce(int kind, int code, int signal, const std::string& text);
    void wait_for_written(double seconds);
    void write_partial(const std::string& reason);
};

std::string rank_prefix(const world& w);  // "tslab-calibrate: rank 1 on node-a"

}  // namespace tslab::calibrate
