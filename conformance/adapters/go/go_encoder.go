// Go CBOR and MessagePack libraries as sinkcheck conformance encoders, in batch (or per-vector)
// mode, reading the JSON notation:
//
//	sinkcheck conform --format cbor --mode batch --notation json --encoder 'go_encoder --library fxamacker'
//
// --library names the library and its settings:
//
//	fxamacker       github.com/fxamacker/cbor/v2 (Debian golang-github-fxamacker-cbor-dev 2.4.0):
//	                cbor.EncOptions{Sort: cbor.SortBytewiseLexical}.EncMode(), the defaults but for
//	                the key order (a Go map iterates in random order; sorted, a run is reproducible)
//	fxamacker-core  the same with cbor.CoreDetEncOptions(), RFC 8949 §4.2.1 core deterministic
//	ugorji          github.com/ugorji/go/codec (Debian golang-github-ugorji-go-codec-dev 1.2.8):
//	                a CborHandle or a MsgpackHandle{WriteExt: true} with defaults otherwise
//	                (WriteExt selects the current MessagePack spec: bin and ext formats)
//
// Values become what a Go program hands these libraries: nil, bool, int64 (negative), uint64,
// float64, string (a Go string holds any bytes, so text that is not UTF-8 reaches the library as
// it is), []byte, []interface{}; an object becomes a map[string]interface{} for fxamacker (which
// has no ordered map) and a codec.MapBySlice in the vector's order for ugorji; a binary subtype
// becomes cbor.Tag / codec.RawExt. Integers beyond 64 bits are *big.Int for fxamacker (bignums,
// RFC 8949 §3.4.3); ugorji has no big integer and would write a *big.Int through its
// TextMarshaler as a string, so they are declared unsupported there. Go has no discarded value:
// declared unsupported. A library's error is its refusal.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/big"
	"os"

	"github.com/fxamacker/cbor"
	"github.com/ugorji/go/codec"
)

// orderedMap is an object for ugorji: keys and values alternating, written as a map in order.
type orderedMap []interface{}

func (orderedMap) MapBySlice() {}

var errDiscarded = &unsupported{"Go has no discarded value"}

// toGo converts the protocol's tree for one library; forUgorji selects the ordered map, the
// RawExt and the refusal of big integers.
func toGo(v interface{}, forUgorji bool) (interface{}, error) {
	switch t := v.(type) {
	case discarded:
		return nil, errDiscarded
	case *big.Int:
		if forUgorji {
			return nil, &unsupported{"ugorji/go/codec has no integer beyond 64 bits (a *big.Int would be written as a string)"}
		}
		return t, nil
	case binaryValue:
		if forUgorji {
			return &codec.RawExt{Tag: t.subtype, Data: t.data, Value: t.data}, nil
		}
		return cbor.Tag{Number: t.subtype, Content: t.data}, nil
	case []interface{}:
		out := make([]interface{}, len(t))
		for i, e := range t {
			c, err := toGo(e, forUgorji)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case *object:
		if forUgorji {
			out := make(orderedMap, 0, 2*len(t.members))
			for _, m := range t.members {
				c, err := toGo(m.value, forUgorji)
				if err != nil {
					return nil, err
				}
				out = append(out, m.key, c)
			}
			return out, nil
		}
		out := make(map[string]interface{}, len(t.members))
		for _, m := range t.members {
			c, err := toGo(m.value, forUgorji)
			if err != nil {
				return nil, err
			}
			out[m.key] = c
		}
		return out, nil
	}
	return v, nil
}

func fxamackerEncoder(opts cbor.EncOptions) encodeFunc {
	em, err := opts.EncMode()
	if err != nil {
		fail("fxamacker/cbor: %v", err)
	}
	return func(r request) ([]byte, error) {
		if r.format != "cbor" {
			return nil, &unsupported{"fxamacker/cbor writes CBOR only"}
		}
		v, err := toGo(r.value, false)
		if err != nil {
			return nil, err
		}
		out, err := em.Marshal(v)
		if err != nil {
			return nil, &refused{err}
		}
		return out, nil
	}
}

func ugorjiEncoder() encodeFunc {
	cborHandle := &codec.CborHandle{}
	msgpackHandle := &codec.MsgpackHandle{WriteExt: true}
	return func(r request) ([]byte, error) {
		var h codec.Handle
		switch r.format {
		case "cbor":
			h = cborHandle
		case "msgpack":
			h = msgpackHandle
		default:
			return nil, &unsupported{"ugorji/go/codec is graded in CBOR and MessagePack only"}
		}
		v, err := toGo(r.value, true)
		if err != nil {
			return nil, err
		}
		var out bytes.Buffer
		if err := codec.NewEncoder(&out, h).Encode(v); err != nil {
			return nil, &refused{err}
		}
		return out.Bytes(), nil
	}
}

func main() {
	library := flag.String("library", "", "fxamacker, fxamacker-core or ugorji")
	flag.Parse()
	var encode encodeFunc
	switch *library {
	case "fxamacker":
		encode = fxamackerEncoder(cbor.EncOptions{Sort: cbor.SortBytewiseLexical})
	case "fxamacker-core":
		encode = fxamackerEncoder(cbor.CoreDetEncOptions())
	case "ugorji":
		encode = ugorjiEncoder()
	default:
		fmt.Fprintf(os.Stderr, "go_encoder: --library fxamacker, fxamacker-core or ugorji, not %q\n", *library)
		os.Exit(2)
	}
	serve(encode)
}
