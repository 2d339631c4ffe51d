#!/usr/bin/env node
// npm encoders as sinkcheck conformance encoders, one library per process:
//
//     sinkcheck conform --format cbor --mode batch --encoder 'node node_encoder.js --library cbor-x'
//
// --library cbor-x | cbor | msgpackr | @msgpack/msgpack | bson, each with its defaults, the
// versions pinned by package.json and package-lock.json beside this file (installed by
// scripts/conformance-results.sh with `npm ci`, never by the C++ build).
//
// The conversions every library shares (sinkcheck_protocol.js toJS): objects are plain objects,
// strings JavaScript strings (a lone surrogate is a lone code unit; other bytes that are not
// UTF-8 have no counterpart: unsupported), integers numbers when safe and BigInts otherwise, a
// binary without subtype a Buffer. Per library below: what a subtype becomes, and what a float
// becomes. JavaScript has one number type, so 1.0 and 1 are the same value; a library with no
// float type of its own (all but bson) cannot be told that a whole double is a float, and such
// values are declared unsupported (-0, which JavaScript keeps apart, is passed). A refusal is an
// exception of the classes the library throws on purpose; any other exception is an error.
'use strict';

const {Unsupported, toJS, integer, serve} = require('./sinkcheck_protocol.js');

const OLD_BINARY = 2n;

function wholeDouble(library) {
    return (v) => {
        if (Number.isInteger(v) && !Object.is(v, -0)) {
            throw new Unsupported(`a whole double is the integer ${v} to JavaScript, and ${library} has no float type`);
        }
        return v;
    };
}

/** A tag number the library takes as a JavaScript number: beyond 2^53 there is none. */
function tagNumber(subtype, library) {
    const n = integer(subtype);
    if (typeof n === 'bigint') throw new Unsupported(`${library} takes a tag as a number; ${subtype} is beyond 2^53`);
    return n;
}

/**
 * A MessagePack ext type: subtypes 128..255 are the signed type byte (-128..-1) nlohmann writes;
 * larger ones are passed as they are (a number), for the library to refuse (docs/conformance.md,
 * "Binary subtypes").
 */
function extType(subtype) {
    return subtype >= 128n && subtype <= 255n ? Number(subtype) - 256 : Number(subtype);
}

/**
 * cbor-x, msgpackr and @msgpack/msgpack write a number that is an integer in int32 or uint32
 * range as an integer and any other number as a float64: for them a number beyond 32 bits is a
 * double, and a BigInt is the integer type of that range (written as a 64-bit integer).
 */
function int32Or64(v) {
    return v >= -(2n ** 31n) && v < 2n ** 32n ? Number(v) : v;
}

/**
 * cbor-x, cbor, msgpackr and @msgpack/msgpack refuse a value by throwing a plain Error or a
 * RangeError; a TypeError (or any subclass) out of them is a fault, not a refusal.
 */
function thrownOnPurpose(e) {
    return e.constructor === Error || e.constructor === RangeError;
}

// Each library: its formats, how to load it, the leaf conversions, and its refusals.
const LIBRARIES = {
    'cbor-x': {
        format: 'cbor',
        load() {
            const cborx = require('cbor-x');
            return {
                float: wholeDouble('cbor-x'),
                int: int32Or64,
                binary: (data, subtype) => (subtype === null ? data : new cborx.Tag(data, tagNumber(subtype, 'cbor-x'))),
                encode: (v) => cborx.encode(v),
                isRefusal: thrownOnPurpose,
            };
        },
    },
    cbor: {
        format: 'cbor',
        load() {
            const cbor = require('cbor');
            return {
                float: wholeDouble('cbor'),
                binary: (data, subtype) => (subtype === null ? data : new cbor.Tagged(integer(subtype), data)),
                encode: (v) => cbor.encode(v),
                isRefusal: thrownOnPurpose,
            };
        },
    },
    msgpackr: {
        format: 'msgpack',
        load() {
            const msgpackr = require('msgpackr');
            // msgpackr writes an ext type through an extension registered for a class.
            const classes = new Map();
            const extClass = (type) => {
                if (!classes.has(type)) {
                    const Ext = class {
                        constructor(data) {
                            this.data = data;
                        }
                    };
                    msgpackr.addExtension({Class: Ext, type, pack: (x) => x.data, unpack: (b) => new Ext(b)});
                    classes.set(type, Ext);
                }
                return classes.get(type);
            };
            return {
                float: wholeDouble('msgpackr'),
                int: int32Or64,
                binary: (data, subtype) => {
                    if (subtype === null) return data;
                    const Ext = extClass(extType(subtype));
                    return new Ext(data);
                },
                encode: (v) => msgpackr.pack(v),
                isRefusal: thrownOnPurpose,
            };
        },
    },
    '@msgpack/msgpack': {
        format: 'msgpack',
        load() {
            const mm = require('@msgpack/msgpack');
            return {
                float: wholeDouble('@msgpack/msgpack'),
                int: int32Or64,
                binary: (data, subtype) => (subtype === null ? data : new mm.ExtData(extType(subtype), data)),
                // useBigInt64: the library's documented way to write a BigInt.
                encode: (v) => mm.encode(v, {useBigInt64: true}),
                isRefusal: thrownOnPurpose,
            };
        },
    },
    bson: {
        format: 'bson',
        load() {
            const bson = require('bson');
            return {
                // bson.Double: the library's own way to say "a double" (a number that is an
                // integer in int32's range would be written as int32).
                float: (v) => new bson.Double(v),
                // A number is written as int32 when it is an integer in int32's range and as a
                // double otherwise; a BigInt as int64. So every integer beyond int32 is a BigInt.
                int: (v) => (v >= -(2n ** 31n) && v < 2n ** 31n ? Number(v) : v),
                binary: (data, subtype) => {
                    if (subtype === null) return data;
                    if (subtype === OLD_BINARY) {
                        // The value's bytes are the document's: an int32 count, then the payload;
                        // bson.Binary writes that count itself for subtype 2.
                        if (data.length < 4 || data.readInt32LE(0) !== data.length - 4) {
                            throw new Unsupported('subtype 2 bytes without their int32 count: bson.Binary writes the count itself');
                        }
                        data = data.subarray(4);
                    }
                    return new bson.Binary(data, Number(subtype));
                },
                encode: (v) => bson.serialize(v),
                isRefusal: (e) => e instanceof bson.BSONError,
            };
        },
    },
};

function main(argv) {
    const at = argv.indexOf('--library');
    const name = at >= 0 ? argv[at + 1] : undefined;
    const library = LIBRARIES[name];
    if (library === undefined) {
        process.stderr.write(`node_encoder.js: --library ${name} is none of ${Object.keys(LIBRARIES).join(', ')}\n`);
        process.exitCode = 2;
        return;
    }
    const lib = library.load();
    const leaf = (node) => {
        switch (node.type) {
            case 'null': return null;
            case 'bool': return node.value;
            case 'int': return lib.int ? lib.int(node.value) : integer(node.value);
            case 'float': return lib.float(node.value);
            case 'binary': return lib.binary(Buffer.from(node.data), node.subtype);
            default: throw new Error(`no conversion for ${node.type}`);
        }
    };
    serve((value, request) => {
        if (request.format !== library.format) throw new Unsupported(`${name} writes ${library.format} only`);
        return lib.encode(toJS(value, leaf));
    }, lib.isRefusal);
}

main(process.argv.slice(2));
