// The encoder side of the sinkcheck conformance protocol, for encoders written in JavaScript
// (Node.js), the counterpart of ../python/sinkcheck_protocol.py.
//
// An adapter is one function, encode(value, request) -> Uint8Array, handed to serve() with a
// predicate isRefusal(error) that says which exceptions are its library's deliberate
// refusals. It throws Unsupported to declare a value, option or format unsupported, and Refused
// (or an error isRefusal accepts) to refuse. Any other exception is an error of the adapter: its
// stack goes to stderr and the process exits 70, which the runner grades as a crash. serve()
// speaks both modes of docs/conformance.md: per-vector (the request in the environment and on
// stdin, the answer on stdout and in the exit status) and batch (SINKCHECK_MODE=batch:
// length-prefixed frames on stdin and stdout).
//
// Values arrive in the value notation of corpus/conformance/README.md, or with `sinkcheck conform
// --notation json` in the JSON notation of docs/cli.md (SINKCHECK_NOTATION=json), and are parsed
// into a tree of nodes that keeps what JavaScript's own values lose, for the adapter to convert
// as its library can: {type: 'int', value: BigInt}, {type: 'float', value: number} (NaN payloads and
// -0 kept), {type: 'string', bytes: Buffer}, {type: 'binary', data: Buffer, subtype: BigInt or
// null}, {type: 'array', items: [...]}, {type: 'object', members: [[key bytes, node], ...]} in
// the vector's key order, and {type: 'null'}, {type: 'bool', value}, {type: 'discarded'}.
// toJS() makes the JavaScript value with the conversions every adapter shares.
'use strict';

const EXIT_REFUSED = 65;
const EXIT_UNSUPPORTED = 77;
const EXIT_SOFTWARE = 70;

class Unsupported extends Error {}
class Refused extends Error {}

const TOKEN = new RegExp(
    String.raw`\s*(?:([\[\]{},:])|("(?:[^"\\]|\\.)*")|f64'([0-9a-fA-F]{16})'|h'([0-9a-fA-F]*)'(?:#([0-9]+))?` +
        String.raw`|(-?NaN|-?Infinity|true|false|null|discarded)|(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?))`,
    'y');

const ESCAPES = {'"': 0x22, '\\': 0x5c, '/': 0x2f, b: 0x08, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09};

/** The bytes of a string token: JSON escapes, \uXXXX pairs, \xHH raw bytes. */
function stringBytes(token) {
    const body = token.slice(1, -1);
    if (!body.includes('\\')) return Buffer.from(body, 'utf8');
    const parts = [];
    let i = 0;
    while (i < body.length) {
        const j = body.indexOf('\\', i);
        if (j !== i) {
            const end = j < 0 ? body.length : j;
            parts.push(Buffer.from(body.slice(i, end), 'utf8'));
            i = end;
            continue;
        }
        const e = body[i + 1];
        if (e === 'x') {
            parts.push(Buffer.from([parseInt(body.slice(i + 2, i + 4), 16)]));
            i += 4;
        } else if (e === 'u') {
            let cp = parseInt(body.slice(i + 2, i + 6), 16);
            i += 6;
            if (cp >= 0xd800 && cp <= 0xdbff && body.slice(i, i + 2) === '\\u') {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (parseInt(body.slice(i + 2, i + 6), 16) - 0xdc00);
                i += 6;
            }
            parts.push(Buffer.from(String.fromCodePoint(cp), 'utf8'));
        } else {
            parts.push(Buffer.from([ESCAPES[e]]));
            i += 2;
        }
    }
    return Buffer.concat(parts);
}

function f64(bits) {
    return Buffer.from(bits, 'hex').readDoubleBE(0);
}

const WORDS = {
    true: {type: 'bool', value: true},
    false: {type: 'bool', value: false},
    null: {type: 'null'},
    NaN: {type: 'float', value: NaN},
    '-NaN': {type: 'float', value: f64('fff8000000000000')},
    Infinity: {type: 'float', value: Infinity},
    '-Infinity': {type: 'float', value: -Infinity},
    discarded: {type: 'discarded'},
};

/** Parses one value in wire notation into nodes, without recursion. */
function parseValue(text) {
    const stack = [];  // [container node, pending key]
    let root;
    let expectKey = false;
    let pos = 0;
    for (;;) {
        TOKEN.lastIndex = pos;
        const m = TOKEN.exec(text);
        if (m === null) throw new Error(`value notation: unexpected text at byte ${pos}`);
        pos = TOKEN.lastIndex;
        let node;
        if (m[1] !== undefined) {
            const p = m[1];
            if (p === '[') {
                node = {type: 'array', items: []};
            } else if (p === '{') {
                node = {type: 'object', members: []};
            } else if (p === ']' || p === '}') {
                stack.pop();
                expectKey = false;
                if (stack.length === 0) break;
                continue;
            } else {
                if (p === ',') expectKey = stack[stack.length - 1][0].type === 'object';
                continue;
            }
        } else if (m[2] !== undefined) {
            const bytes = stringBytes(m[2]);
            if (expectKey) {
                stack[stack.length - 1][1] = bytes;
                expectKey = false;
                continue;
            }
            node = {type: 'string', bytes};
        } else if (m[3] !== undefined) {
            node = {type: 'float', value: f64(m[3])};
        } else if (m[4] !== undefined) {
            node = {type: 'binary', data: Buffer.from(m[4], 'hex'), subtype: m[5] === undefined ? null : BigInt(m[5])};
        } else if (m[6] !== undefined) {
            node = WORDS[m[6]];
        } else {
            const n = m[7];
            node = /[.eE]/.test(n) ? {type: 'float', value: Number(n)} : {type: 'int', value: BigInt(n)};
        }
        if (stack.length > 0) {
            const top = stack[stack.length - 1];
            if (top[0].type === 'array') {
                top[0].items.push(node);
            } else {
                top[0].members.push([top[1], node]);
            }
        } else {
            root = node;
        }
        if (node.type === 'array' || node.type === 'object') {
            stack.push([node, null]);
            expectKey = node.type === 'object';
        } else if (stack.length === 0) {
            break;
        }
        if (pos >= text.length && stack.length > 0) throw new Error('value notation: the text ends inside a container');
    }
    if (text.slice(pos).trim() !== '') throw new Error(`value notation: text after the value at byte ${pos}`);
    return root;
}

// The key sets that make an object notation (docs/cli.md, "Values JSON text cannot hold"), each
// sorted and joined with spaces.
const NOTATION_KEYS = new Set(['$binary', '$binary $subtype', '$float', '$integer', '$string', '$discarded',
    '$members', '$object']);

function notationError(what) {
    return new Error(`JSON notation: ${what}`);
}

/** The text of a string node, or null for any other node. */
function textOf(node) {
    return node.type === 'string' ? node.bytes.toString('latin1') : null;
}

function hexBytes(node, name) {
    const t = textOf(node);
    if (t === null || !/^(?:[0-9a-fA-F]{2})*$/.test(t)) {
        throw notationError(`"${name}" holds a string of an even number of hex digits`);
    }
    return Buffer.from(t, 'hex');
}

/**
 * --notation json sends every double as its 64 bits, so no decimal text is ever rounded by a
 * reader; the decimal form (--notation json-decimal, the export) reads with Number(), which
 * rounds correctly (ECMA-262, StringToNumber).
 */
function jsonFloat(node) {
    const t = textOf(node);
    if (t !== null && /^0x[0-9a-fA-F]{16}$/.test(t)) return f64(t.slice(2));
    if (t === 'nan') return NaN;
    if (t === 'inf') return Infinity;
    if (t === '-inf') return -Infinity;
    if (t !== null && /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/.test(t)) return Number(t);
    throw notationError('"$float" holds "nan", "inf", "-inf", "0x" and 16 hex digits, or a decimal');
}

function jsonInteger(node, name, signed) {
    if (node.type === 'int' && (signed || node.value >= 0n)) return node.value;
    const t = textOf(node);
    if (t !== null && /^-?(?:0|[1-9][0-9]*)$/.test(t) && (signed || t[0] !== '-')) return BigInt(t);
    throw notationError(`"${name}" holds an integer, as a number or a string of decimal digits`);
}

function jsonKey(node) {
    if (node.type === 'string') return node.bytes;
    if (node.type === 'object' && node.members.length === 1 && node.members[0][0].toString('latin1') === '$string') {
        return hexBytes(node.members[0][1], '$string');
    }
    throw notationError('a key is a string or {"$string": "hex"}');
}

/**
 * Parses one value in the JSON notation of docs/cli.md (SINKCHECK_NOTATION=json) into the
 * nodes parseValue makes. JSON text is wire notation without extensions, so parseValue reads
 * it; each notation object is then replaced by its node, iteratively.
 */
function parseJsonNotation(text) {
    const root = [parseValue(text)];
    // [container, slot, node, true when the node is an object of data: {"$object": ...}]
    const todo = [[root, 0, root[0], false]];
    while (todo.length > 0) {
        const [parent, slot, node, data] = todo.pop();
        let value = node;
        if (node.type === 'array') {
            node.items.forEach((item, i) => todo.push([node.items, i, item, false]));
        } else if (node.type === 'object') {
            const keys = node.members.map(([k]) => k.toString('latin1'));
            if (data || !NOTATION_KEYS.has([...keys].sort().join(' '))) {
                for (const member of node.members) todo.push([member, 1, member[1], false]);
            } else {
                const field = new Map(keys.map((k, i) => [k, node.members[i][1]]));
                if (field.has('$binary')) {
                    const subtype = field.get('$subtype');
                    value = {type: 'binary', data: hexBytes(field.get('$binary'), '$binary'),
                        subtype: subtype === undefined ? null : jsonInteger(subtype, '$subtype', false)};
                } else if (field.has('$float')) {
                    value = {type: 'float', value: jsonFloat(field.get('$float'))};
                } else if (field.has('$integer')) {
                    value = {type: 'int', value: jsonInteger(field.get('$integer'), '$integer', true)};
                } else if (field.has('$string')) {
                    value = {type: 'string', bytes: hexBytes(field.get('$string'), '$string')};
                } else if (field.has('$discarded')) {
                    const d = field.get('$discarded');
                    if (d.type !== 'bool' || d.value !== true) throw notationError('"$discarded" holds true');
                    value = {type: 'discarded'};
                } else if (field.has('$members')) {
                    const list = field.get('$members');
                    if (list.type !== 'array' || !list.items.every((m) => m.type === 'array' && m.items.length === 2)) {
                        throw notationError('"$members" holds an array of [key, value] pairs');
                    }
                    value = {type: 'object', members: list.items.map((m) => [jsonKey(m.items[0]), m.items[1]])};
                    const seen = new Set();
                    for (const member of value.members) {
                        const key = member[0].toString('latin1');
                        if (seen.has(key)) throw notationError(`duplicate key ${JSON.stringify(key)} in $members`);
                        seen.add(key);
                        todo.push([member, 1, member[1], false]);
                    }
                } else {
                    const inner = field.get('$object');
                    if (inner.type !== 'object') throw notationError('"$object" holds an object');
                    todo.push([parent, slot, inner, true]);
                    continue;
                }
            }
        }
        parent[slot] = value;
    }
    return root[0];
}

// ignoreBOM: a leading U+FEFF is part of the string, not a byte order mark to drop.
const UTF8 = new TextDecoder('utf-8', {fatal: true, ignoreBOM: true});

/**
 * A JavaScript string for the bytes. A JavaScript string is UTF-16 code units, so it holds any
 * valid UTF-8 and also a lone surrogate (written in UTF-8's pattern, ED A0..BF xx, as the corpus
 * does for "a surrogate is not UTF-8"): that becomes the lone code unit, and what the library
 * then writes for it is its own doing. Other bytes that are not UTF-8 have no counterpart.
 */
function jsString(bytes) {
    try {
        return UTF8.decode(bytes);
    } catch (e) {
        try {
            let out = '';
            let start = 0;
            for (let i = 0; i + 2 < bytes.length; ++i) {
                const [b0, b1, b2] = [bytes[i], bytes[i + 1], bytes[i + 2]];
                if (b0 === 0xed && b1 >= 0xa0 && b1 <= 0xbf && (b2 & 0xc0) === 0x80) {
                    out += UTF8.decode(bytes.subarray(start, i));
                    out += String.fromCharCode(0xd000 | ((b1 & 0x3f) << 6) | (b2 & 0x3f));
                    start = i + 3;
                    i += 2;
                }
            }
            return out + UTF8.decode(bytes.subarray(start));
        } catch (e2) {
            throw new Unsupported('a string that is not UTF-8 (other than a lone surrogate) has no JavaScript counterpart');
        }
    }
}

/**
 * The JavaScript value of a node tree, iteratively. Objects are plain objects with the members
 * defined in the vector's order (JavaScript itself puts integer-like keys first, ascending);
 * `leaf(node)` converts every node that is not an array or object (the adapter's choices for
 * integers, floats, binary); strings become jsString(bytes).
 */
function toJS(root, leaf) {
    const convert = (node) => {
        if (node.type === 'array') return [];
        if (node.type === 'object') return {};
        if (node.type === 'discarded') throw new Unsupported('a discarded value has no JavaScript counterpart');
        if (node.type === 'string') return jsString(node.bytes);
        return leaf(node);
    };
    const out = convert(root);
    const todo = [[root, out]];
    while (todo.length > 0) {
        const [node, value] = todo.pop();
        if (node.type === 'array') {
            for (const item of node.items) {
                const v = convert(item);
                value.push(v);
                if (item.type === 'array' || item.type === 'object') todo.push([item, v]);
            }
        } else if (node.type === 'object') {
            for (const [key, item] of node.members) {
                const v = convert(item);
                // defineProperty, so that a key "__proto__" is a member, not the prototype.
                Object.defineProperty(value, jsString(key), {value: v, enumerable: true, writable: true, configurable: true});
                if (item.type === 'array' || item.type === 'object') todo.push([item, v]);
            }
        }
    }
    return out;
}

/** A safe integer as a number, any other integer as a BigInt. */
function integer(value) {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

class AdapterError extends Error {}

/** [status, payload]: 0 encoded, 1 refused, 2 unsupported; throws AdapterError otherwise. */
function answer(encode, isRefusal, request, text) {
    let value;
    try {
        value = process.env.SINKCHECK_NOTATION === 'json' ? parseJsonNotation(text) : parseValue(text);
    } catch (e) {
        return [2, Buffer.from(`cannot read the value: ${e.message}`)];
    }
    try {
        return [0, Buffer.from(encode(value, request))];
    } catch (e) {
        if (e instanceof Unsupported) return [2, Buffer.from(e.message)];
        const overflow = e instanceof RangeError && /call stack/.test(e.message);
        if (e instanceof Refused || (!overflow && isRefusal(e))) return [1, Buffer.from(`${e.name}: ${e.message}`)];
        throw new AdapterError(e && e.stack ? e.stack : String(e));
    }
}

function requestOf(fields) {
    return {format: fields.format || '', useSize: fields.use_size === '1', useType: fields.use_type === '1'};
}

function serveBatch(encode, isRefusal) {
    let pending = Buffer.alloc(0);
    process.stdin.on('data', (chunk) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        while (pending.length >= 4) {
            const n = pending.readUInt32BE(0);
            if (pending.length < 4 + n) break;
            const payload = pending.subarray(4, 4 + n);
            pending = pending.subarray(4 + n);
            const split = payload.indexOf('\n\n');
            const header = payload.subarray(0, split < 0 ? payload.length : split).toString('utf8');
            const text = split < 0 ? '' : payload.subarray(split + 2).toString('utf8');
            const fields = {};
            for (const line of header.split('\n')) {
                const eq = line.indexOf('=');
                if (eq > 0) fields[line.slice(0, eq)] = line.slice(eq + 1);
            }
            let status, body;
            try {
                [status, body] = answer(encode, isRefusal, requestOf(fields), text);
            } catch (e) {
                // Not an answer: the process ends mid-exchange, which the runner grades a crash.
                process.stderr.write(e.message + '\n');
                process.exit(EXIT_SOFTWARE);
            }
            const head = Buffer.alloc(9);
            head.writeUInt8(status, 0);
            head.writeUInt32BE(Number(fields.seq || 0), 1);
            head.writeUInt32BE(body.length, 5);
            process.stdout.write(Buffer.concat([head, body]));
        }
    });
}

function serveOne(encode, isRefusal) {
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c));
    process.stdin.on('end', () => {
        const env = process.env;
        const request = requestOf(
            {format: env.SINKCHECK_FORMAT, use_size: env.SINKCHECK_USE_SIZE, use_type: env.SINKCHECK_USE_TYPE});
        let status, body;
        try {
            [status, body] = answer(encode, isRefusal, request, Buffer.concat(chunks).toString('utf8'));
        } catch (e) {
            process.stderr.write(e.message + '\n');
            process.exitCode = EXIT_SOFTWARE;
            return;
        }
        if (status === 0) {
            process.stdout.write(body);
            return;
        }
        process.stderr.write(body.toString('utf8') + '\n');
        process.exitCode = status === 1 ? EXIT_REFUSED : EXIT_UNSUPPORTED;
    });
}

/** Runs the protocol on stdin/stdout in the mode SINKCHECK_MODE names. */
function serve(encode, isRefusal) {
    if (process.env.SINKCHECK_MODE === 'batch') {
        serveBatch(encode, isRefusal);
    } else {
        serveOne(encode, isRefusal);
    }
}

module.exports = {Unsupported, Refused, parseValue, parseJsonNotation, jsString, toJS, integer, serve};
