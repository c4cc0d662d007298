// libFuzzer target: nccl-tests output (text or -J JSON) -> tables -> each table's op, ranks and
// nodes with the busbw check (`tslab-calibrate import` before its fit), with and without the
// options that fill what a log leaves open.
#include "fuzz_entry.hpp"
#include "import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tslab::calibrate;
    return tslab::fuzz::run_entry(data, size, [](const std::string& t) {
        const std::vector<nccl_tests_table> tables = parse_nccl_tests(t, "fuzz.log");
        import_options given;
        given.op = "allgather", given.ranks = 8, given.nodes = 2;
        for (const auto& table : tables) {
            if (table.rows.empty()) continue;  // as import skips it
            try {
                (void)resolve_table(table, import_options{});
            } catch (const tslab::input_error&) {
                // a log that leaves the op, ranks or nodes open: named, then tried with them given
            }
            (void)resolve_table(table, given);
        }
    });
}
