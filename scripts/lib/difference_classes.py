"""What each difference class of `sinkcheck conform` means, for the results documents
(scripts/conformance-results.sh and scripts/lib/generated_document.py).

Every class the runner can give a result (conformance/runner/src/run.cpp: value_class,
item_class, classify; the result names crash, timeout and harness-error, which --generate groups
its failures under when there is no class) has an entry here. explain() stops the script on a
class it does not know: a renamed or new class must be explained before a document shows it.
"""

EXPLAIN = {
    # The values differ (docs/conformance.md, "Results", step 2).
    "different value: integer": "Both sides hold an integer there, of another value (a CBOR bignum is an integer, "
    "leading zeros and all: RFC 8949 §3.4.3).",
    "different value: float": "Both sides hold a double there, of other bits (every NaN equals every NaN; -0.0 is "
    "not 0.0). For nlohmann 3.11.2 these are recorded divergences: UBJSON NaN and infinities written as IEEE bits "
    "where UBJSON Draft 12 says null, BJData ND-arrays whose data do not fit their type.",
    "different value: string": "Both sides hold a text string there, of other bytes.",
    "different value: binary": "Both sides hold binary there, of other bytes or another subtype (a CBOR tag, a "
    "MessagePack ext type, a BSON subtype).",
    "different value: boolean": "true for false or false for true.",
    "different value": "The expected bytes do not decode (an error of the corpus, not of the encoder).",
    "different type": "Another kind of value there: null for false, an integer for a non-whole double, a string "
    "for binary, an array for an object.",
    "integer packing of whole doubles": "A double with an integral value written as an integer: msgpack-cxx's "
    "pack_double does this for 1.0, 65536.0, 1e19 and also -0.0 (which becomes 0, losing the sign). The decoded "
    "value is an integer, not the float the input was, so these fail (and -0.0 would even at equal types).",
    "integer beyond 64 bits": "The input is an integer literal beyond 64 bits. nlohmann's model holds it as the "
    "nearest double (exact level: that double, binary32 when exact); an encoder that keeps the integer writes a "
    "bignum (CBOR tag 2/3) or a major-type-1 integer, which the vector lists as an alternative, and a format "
    "without such integers (MessagePack, BSON) refuses it.",
    "length or structure": "An array of another length, or an object member only one side has (the detail's "
    "pointer names it); or the decodes end or nest differently where values could not be compared.",
    # No answer of bytes, or bytes that do not decode (step 1).
    "writes a value it must refuse": "Bytes for a value the corpus says must be refused: text that is not UTF-8 "
    "(written raw or replaced), a discarded value (written as nothing, corrupting a counted container), a binary "
    "subtype that does not fit the format (truncated), use_type without use_size. nlohmann 3.11.2 fails exactly "
    "these, as the divergences recorded in reference/KNOWN_DIVERGENCES.md.",
    "refuses a valid value": "An error for a value the format can hold: msgpack-python's ExtType takes only types "
    "0..127 (subtypes 128..255 are the negative ext types nlohmann writes), libraries' depth limits, integers "
    "beyond 64 bits in a format that has them.",
    "refuses for another reason": "A refusal naming another error category than the vector's.",
    "malformed output": "Bytes that do not decode at all.",
    "nondeterministic output": "Asked twice, the encoder answered differently (other bytes, another result): its "
    "output depends on more than the value (a map's iteration order, timing).",
    # Equal values written another way (step 3).
    "float width": "The value is the same, the float is wider (or narrower) than the expected bytes'. "
    "nlohmann 3.11.2 writes binary32 whenever the double survives the round trip (never binary16); "
    "cbor2, msgpack-python, msgpack-cxx and libcbor write every float as binary64 (`fb`, `cb`), RFC 8949 "
    "preferred serialization picks the shortest of binary16/32/64. Decodes to the same double: pass-equivalent.",
    "integer width": "The same integer in a wider or narrower form.",
    "head width": "The same item with a head (length or argument) of another width.",
    "tag head width": "The same tag with a head of another width: nlohmann 3.11.2 writes a binary subtype of 0..23 "
    "as `d8 xx`, libcbor and cbor2 the one-byte head `c0+xx` that RFC 8949 §4.1 prefers. Same value.",
    "tag encoding": "The same value with another tag or tag form around it.",
    "indefinite length": "An indefinite-length item where a definite length was expected.",
    "key order": "Same members, another order. nlohmann's objects are std::map, sorted bytewise by key; Python "
    "dicts keep insertion order (the order the vector wrote them in); RFC 8949 §4.2.1 sorts by the encoded key "
    "(shorter keys first). Decodes to the same object: pass-equivalent.",
    "other": "A difference of another kind (a no-op marker, a decode too long to compare by value).",
    # --generate groups failures without a class by their result.
    "crash": "The encoder died (a signal, an exit status that is no answer) or a batch process quit before "
    "answering.",
    "timeout": "No answer within --timeout; the process group was killed.",
    "harness-error": "The runner could not run the encoder for this value (no pipes, no processes left).",
}


def explain(difference):
    """The explanation of a class; stops the script, naming the class, when there is none."""
    if difference not in EXPLAIN:
        raise SystemExit("unknown difference class '%s': explain it in scripts/lib/difference_classes.py before a "
                         "document shows it" % difference)
    return EXPLAIN[difference]
