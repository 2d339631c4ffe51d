// linked.cpp — linked (in-process) C++ encoders (encoder.hpp): their registry, their sessions,
// and the names of what a session's answer was.
#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sinkcheck/conform/encoder.hpp"

namespace sinkcheck::conform {
namespace {

using clock_type = std::chrono::steady_clock;

class linked_session : public encoder_session {
public:
    linked_session(const linked_encoder_info& info, std::unique_ptr<linked_encoder> e)
        : info_(info), e_(std::move(e)) {}
    encode_outcome encode(const test_vector& v) override {
        if (info_.formats.empty()) {
            throw run_stopped("linked:" + info_.name + " declares no format it writes (linked_encoder_info::formats)");
        }
        encode_outcome o;
        if (std::find(info_.formats.begin(), info_.formats.end(), v.fmt) == info_.formats.end()) {
            o.what = encode_outcome::kind::unsupported;
            o.message = info_.name + " does not write " + std::string(format_name(v.fmt));
            return o;
        }
        const auto t0 = clock_type::now();
        try {
            o.bytes = e_->encode(v.fmt, v.input.value, v.input.wire, v.options());
            o.what = encode_outcome::kind::output;
        } catch (const unsupported& e) {
            o.what = encode_outcome::kind::unsupported;
            o.message = e.what();
        } catch (const std::exception& e) {
            o.what = encode_outcome::kind::refused;
            o.message = e.what();
        }
        o.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
        return o;
    }

private:
    const linked_encoder_info& info_;  // the factory's, which outlives its sessions
    std::unique_ptr<linked_encoder> e_;
};

class linked_factory : public encoder_factory {
public:
    explicit linked_factory(linked_encoder_info info) : info_(std::move(info)) {}
    std::string describe() const override {
        return "linked:" + info_.name + " (" + info_.description + ", in-process)";
    }
    std::unique_ptr<encoder_session> open() override { return std::make_unique<linked_session>(info_, info_.make()); }

private:
    linked_encoder_info info_;
};

}  // namespace

const char* outcome_name(encode_outcome::kind k) noexcept {
    switch (k) {
        case encode_outcome::kind::output: return "output";
        case encode_outcome::kind::refused: return "refused";
        case encode_outcome::kind::unsupported: return "unsupported";
        case encode_outcome::kind::crashed: return "crashed";
        case encode_outcome::kind::timed_out: return "timed out";
        case encode_outcome::kind::output_limit: return "output limit";
        case encode_outcome::kind::protocol_error: return "protocol error";
        case encode_outcome::kind::harness_error: return "harness error";
    }
    return "?";
}

std::vector<linked_encoder_info>& linked_encoders() {
    static std::vector<linked_encoder_info> all;
    return all;
}

void register_linked_encoder(linked_encoder_info info) { linked_encoders().push_back(std::move(info)); }

std::unique_ptr<encoder_factory> make_linked_factory(const linked_encoder_info& info) {
    return std::make_unique<linked_factory>(info);
}

}  // namespace sinkcheck::conform
