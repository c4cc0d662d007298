// The stop/failure protocol: notices on a dedicated communicator, polled by one watchdog thread per rank.
#include "control.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "cli_parse.hpp"

#ifdef TSLAB_HAVE_MPI
#include <mpi.h>
#endif

namespace tslab::calibrate {

namespace {

using clock_type = std::chrono::steady_clock;
enum notice_kind { k_stop = 1, k_fail = 2, k_written = 3 };

// One fixed-size message, small enough for MPI's eager protocol (completes without the receiver).
struct notice {
    int kind = 0, rank = 0, code = 0, signal = 0, written = 0;
    char host[64] = {};
    char text[420] = {};
};

struct point_state {
    std::mutex m;
    std::string what;
    clock_type::time_point start{};
    bool running = false;
} points;

void say_err(const std::string& line) { std::fputs((line + "\n").c_str(), stderr), std::fflush(stderr); }

double seconds_since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

}  // namespace

void point_begin(const std::string& what) {
    std::lock_guard lock(points.m);
    points.what = what, points.start = clock_type::now(), points.running = true;
}

void point_end() {
    std::lock_guard lock(points.m);
    points.running = false;
}

std::string rank_prefix(const world& w) { return fmt::format("tslab-calibrate: rank {} on {}", w.rank, w.host); }

run_control::run_control(world& w, recorder& rec, const options& o) : w_(w), rec_(rec), o_(o) {
#ifdef TSLAB_HAVE_MPI
    if (w_.mpi && w_.threads && w_.size > 1) {
        auto* req = new MPI_Request;
        auto* buf = new notice;
        pending_ = new std::pair<MPI_Request*, notice*>(req, buf);
        MPI_Irecv(buf, sizeof(notice), MPI_BYTE, MPI_ANY_SOURCE, 77, *static_cast<MPI_Comm*>(w_.control_comm()), req);
    }
#endif
    dog_ = std::thread([this] { watch(); });
}

run_control::~run_control() {
    done_ = true;
    dog_.join();
#ifdef TSLAB_HAVE_MPI
    if (auto* p = static_cast<std::pair<MPI_Request*, notice*>*>(pending_)) {
        MPI_Cancel(p->first);
        MPI_Wait(p->first, MPI_STATUS_IGNORE);
        delete p->first, delete p->second, delete p;
    }
#endif
}

void run_control::announce(int kind, int code, int signal, const std::string& text) {
#ifdef TSLAB_HAVE_MPI
    if (!pending_) return;
    std::vector<notice> msgs(static_cast<std::size_t>(w_.size));
    std::vector<MPI_Request> reqs;
    for (int r = 0; r < w_.size; ++r) {
        if (r == w_.rank) continue;
        notice& n = msgs[static_cast<std::size_t>(r)];
        n.kind = kind, n.rank = w_.rank, n.code = code, n.signal = signal, n.written = written_ ? 1 : 0;
        std::snprintf(n.host, sizeof n.host, "%s", w_.host.c_str());
        std::snprintf(n.text, sizeof n.text, "%s", text.c_str());
        reqs.emplace_back();
        MPI_Isend(&n, sizeof n, MPI_BYTE, r, 77, *static_cast<MPI_Comm*>(w_.control_comm()), &reqs.back());
    }
    // Bounded: a peer that is gone must not hold this rank (eager sends normally finish at once).
    const auto start = clock_type::now();
    int all = 0;
    while (!all && seconds_since(start) < 2) MPI_Testall(static_cast<int>(reqs.size()), reqs.data(), &all, MPI_STATUSES_IGNORE);
    if (!all)
        for (auto& q : reqs)
            if (q != MPI_REQUEST_NULL) MPI_Request_free(&q);
#else
    (void)kind, (void)code, (void)signal, (void)text;
#endif
}

void run_control::poll_once() {
#ifdef TSLAB_HAVE_MPI
    auto* p = static_cast<std::pair<MPI_Request*, notice*>*>(pending_);
    if (!p) return;
    std::unique_lock lock(poll_m_);
    int got = 0;
    MPI_Test(p->first, &got, MPI_STATUS_IGNORE);
    if (!got) return;
    const notice n = *p->second;
    MPI_Irecv(p->second, sizeof(notice), MPI_BYTE, MPI_ANY_SOURCE, 77, *static_cast<MPI_Comm*>(w_.control_comm()), p->first);
    lock.unlock();
    if (n.kind == k_written) written_ = true;
    if (n.kind == k_stop && !stopper().local()) {
        stopper().request_from(n.signal, n.rank);
        stop_announced_ = true;  // the sender told everyone already
        if (w_.rank == 0) write_partial(fmt::format("{} on rank {}", n.signal == SIGTERM ? "SIGTERM" : "SIGINT", n.rank));
    }
    if (n.kind == k_fail) on_peer_failure(n.rank, n.host, n.code, n.text, n.written != 0);
#endif
}

void run_control::write_partial(const std::string& reason) {
    if (w_.rank != 0) return;
    const std::string err = rec_.write(o_.out, false, reason);
    if (!err.empty()) say_err(rank_prefix(w_) + ": partial profile not written: " + err);
    written_ = true;
}

void run_control::wait_for_written(double seconds) {
    const auto start = clock_type::now();
    while (!written_ && seconds_since(start) < seconds) {
        poll_once();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

void run_control::on_peer_failure(int rank, const std::string& host, int code, const std::string& text, bool written) {
    const std::string reason = fmt::format("rank {} on {} failed: {}", rank, host, text);
    say_err(fmt::format("{}: stopping: {}", rank_prefix(w_), reason));
    if (w_.rank == 0) {
        write_partial(reason);
        say_err(fmt::format("{}: partial profile written to {} (\"complete\": false)", rank_prefix(w_), o_.out));
        announce(k_written, code, 0, "");
    } else if (!written) {
        wait_for_written(5);
    }
    std::_Exit(code);
}

void run_control::fail(int code, const std::string& message) {
    say_err(fmt::format("{}: error: {}", rank_prefix(w_), message));
    const std::string reason = fmt::format("rank {} on {} failed: {}", w_.rank, w_.host, message);
    if (w_.rank == 0) {
        write_partial(reason);
        say_err(fmt::format("{}: partial profile written to {} (\"complete\": false)", rank_prefix(w_), o_.out));
    }
    if (w_.size > 1 && !pending_) {  // no thread-safe MPI: no notices, so tear the job down
        say_err(rank_prefix(w_) + ": this MPI has no MPI_THREAD_MULTIPLE; aborting every rank");
        w_.abort(code);
    }
    announce(k_fail, code, 0, message);
    if (w_.rank != 0) wait_for_written(5);
    std::_Exit(code);
}

void run_control::on_stop_request() {
    if (stop_announced_.exchange(true)) return;
    const int sig = stopper().signal_number();
    announce(k_stop, 0, sig, "");
    if (w_.rank == 0) write_partial(fmt::format("{} on rank 0", sig == SIGTERM ? "SIGTERM" : "SIGINT"));
}

void run_control::watch() {
    const double grace_s = 10;
    clock_type::time_point stop_seen{};
    while (!done_) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        poll_once();
        if (stopper().signal_number() && stopper().signal_rank() < 0) on_stop_request();
        if (!stopper().local())
            stop_seen = {};
        else if (stop_seen == clock_type::time_point{})
            stop_seen = clock_type::now();
        else if (seconds_since(stop_seen) > grace_s && !done_) {
            say_err(fmt::format("{}: a collective did not return {:.0f} s after the stop; exiting", rank_prefix(w_), grace_s));
            write_partial(stopper().signal_number() ? "a signal" : "--timeout");
            if (w_.rank != 0) wait_for_written(2);
            std::_Exit(native::exit_stopped);
        }
        std::string late;
        {
            std::lock_guard lock(points.m);
            if (points.running && o_.op_timeout_s > 0 && seconds_since(points.start) > o_.op_timeout_s) late = points.what, points.running = false;
        }
        if (!late.empty()) fail(native::exit_internal, fmt::format("{} did not finish within -T {:g} s", late, o_.op_timeout_s));
    }
}

}  // namespace tslab::calibrate
