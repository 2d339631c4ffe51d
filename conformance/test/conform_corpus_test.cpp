// conform_corpus_test.cpp — the corpus cannot drift: every vector still matches its sources.
//
// Each exact vector must equal what nlohmann 3.11.2 writes (unless the vector records a
// divergence, in which case 3.11.2 must really write something else) and what the reference
// writes; each negative vector must be refused by the reference with its error id, and by
// 3.11.2 too when 3.11.2 has that error; every canonical and alternative byte string must be
// well-formed (read by the oracle's decoder where it can). A vector that fails here is wrong, or an encoder is.
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sinkcheck/conform/corpus.hpp"
#include "sinkcheck/conform/decode.hpp"
#include "sinkcheck/encode.hpp"
#include "sinkcheck/testkit/oracle.hpp"

namespace sinkcheck::conform {
namespace {

using json = nlohmann::json;

const std::vector<test_vector>& corpus() {
    static const std::vector<test_vector> all = load_corpus(SINKCHECK_CORPUS_DIR);
    return all;
}

std::string where(const test_vector& v) { return v.file + ":" + std::to_string(v.line) + ": " + v.id; }

/// Decodes as the runner does (the oracle, sinkcheck's BON8 decoder, or the runner's own for
/// what 3.11.2 cannot read); returns false with the reason.
bool decodes(format f, const std::vector<std::uint8_t>& bytes, std::string& message) {
    const decoded_value d = decode_value(f, bytes);
    message = d.how;
    return d.ok;
}

void check_format(format f) {
    std::size_t checked = 0;
    for (const test_vector& v : corpus()) {
        if (v.fmt != f) continue;
        ++checked;
        const json& value = v.input.value;
        const encode_options o = v.options();
        if (v.negative()) {
            try {
                const auto out = encode_to_vector(f, value, o);
                ADD_FAILURE() << where(v) << ": the reference wrote " << to_hex(out) << " instead of refusing with "
                              << v.error;
            } catch (const encode_error& e) {
                EXPECT_EQ(std::string(e.category()) + "." + std::to_string(e.id()), v.error)
                    << where(v) << ": " << e.what();
            } catch (const std::invalid_argument& e) {
                EXPECT_EQ(v.error, "invalid_argument") << where(v) << ": " << e.what();
            }
            if (oracle_has(f) && v.divergence.empty()) {
                try {
                    const auto out = oracle_encode(f, value, o);
                    ADD_FAILURE() << where(v) << ": nlohmann 3.11.2 wrote " << to_hex(out)
                                  << "; the vector claims it refuses";
                } catch (const json::exception& e) {
                    EXPECT_NE(std::string(e.what()).find(v.error), std::string::npos)
                        << where(v) << ": nlohmann says " << e.what();
                }
            }
            if (!v.divergence.empty() && f != format::bon8) {
                const char* id = known_divergence(f, value, o);
                EXPECT_TRUE(id != nullptr && v.divergence == id)
                    << where(v) << ": the vector records divergence " << v.divergence << ", the reference names "
                    << (id ? id : "none");
            }
            continue;
        }
        std::string message;
        EXPECT_TRUE(decodes(f, v.expect, message)) << where(v) << ": expected bytes do not decode: " << message;
        for (const auto& alt : v.alternatives) {
            EXPECT_TRUE(decodes(f, alt, message))
                << where(v) << ": alternative " << to_hex(alt) << " does not decode: " << message;
        }
        const bool exact = (v.levels & (level_exact | level_equivalent)) != 0;
        if (!exact) {
            continue;  // canonical-only bytes: checked against cbor2 by conform_canonical_check.py
        }
        if (oracle_has(f)) {
            const auto oracle = oracle_encode(f, value, o);
            if (v.divergence.empty()) {
                EXPECT_EQ(to_hex(oracle), to_hex(v.expect)) << where(v) << ": nlohmann 3.11.2 disagrees";
            } else {
                EXPECT_NE(to_hex(oracle), to_hex(v.expect)) << where(v) << ": records divergence " << v.divergence
                                                            << " but nlohmann 3.11.2 writes the same bytes";
                const char* id = known_divergence(f, value, o);
                EXPECT_TRUE(id != nullptr && v.divergence == id)
                    << where(v) << ": the vector records divergence " << v.divergence << ", the reference names "
                    << (id ? id : "none");
            }
        }
        try {
            EXPECT_EQ(to_hex(encode_to_vector(f, value, o)), to_hex(v.expect))
                << where(v) << ": the reference disagrees";
        } catch (const std::exception& e) {
            ADD_FAILURE() << where(v) << ": the reference refused: " << e.what();
        }
    }
    EXPECT_GE(checked, 150u) << format_name(f) << ": fewer than 150 vectors";
}

TEST(ConformCorpus, EveryFormatHasAtLeast150Vectors) {
    std::map<format, std::size_t> count;
    for (const test_vector& v : corpus()) ++count[v.fmt];
    for (format f : all_formats) {
        EXPECT_GE(count[f], 150u) << format_name(f);
    }
}

TEST(ConformCorpus, EveryVectorNamesItsRuleAndSource) {
    for (const test_vector& v : corpus()) {
        EXPECT_FALSE(v.rule.empty()) << where(v);
        EXPECT_FALSE(v.source.empty()) << where(v);
    }
}

TEST(ConformCorpus, CborVectorsMatchOracleAndReference) { check_format(format::cbor); }
TEST(ConformCorpus, MsgpackVectorsMatchOracleAndReference) { check_format(format::msgpack); }
TEST(ConformCorpus, UbjsonVectorsMatchOracleAndReference) { check_format(format::ubjson); }
TEST(ConformCorpus, BjdataVectorsMatchOracleAndReference) { check_format(format::bjdata); }
TEST(ConformCorpus, BsonVectorsMatchOracleAndReference) { check_format(format::bson); }
TEST(ConformCorpus, Bon8VectorsMatchReferenceAndDecoder) { check_format(format::bon8); }

}  // namespace
}  // namespace sinkcheck::conform
