# frozen_string_literal: true

# ruby-msgpack (Debian 1.4.2) as a sinkcheck conformance encoder, MessagePack only:
#
#   sinkcheck conform --format msgpack --mode batch --notation json --encoder 'ruby msgpack_encoder.rb'
#
# Writes MessagePack.pack(value) with the library's defaults: a String in UTF-8 is a str, one in
# ASCII-8BIT a bin, a Float always float 64, a Hash in its insertion order (the vector's). A
# binary subtype becomes a MessagePack::ExtensionValue; subtypes 128..255 are passed as the
# signed type byte nlohmann writes (-128..-1), others as they are, for the library to take or
# reject. Ruby has no discarded value: declared unsupported. msgpack refuses a value by raising
# RangeError (an integer beyond 64 bits) or ArgumentError; anything else is an error.
require 'msgpack'
require_relative 'sinkcheck_protocol'

def to_msgpack_value(v)
  case v
  when SinkcheckProtocol::Binary
    type = v.subtype.between?(128, 255) ? v.subtype - 256 : v.subtype
    MessagePack::ExtensionValue.new(type, v.data)
  when Array then v.map { |e| to_msgpack_value(e) }
  when Hash then v.transform_values { |e| to_msgpack_value(e) }
  else
    raise SinkcheckProtocol::Unsupported, 'Ruby has no discarded value' if v.equal?(SinkcheckProtocol::DISCARDED)

    v
  end
end

exit(SinkcheckProtocol.serve(refusals: [RangeError, ArgumentError]) do |value, request|
  raise SinkcheckProtocol::Unsupported, 'ruby-msgpack writes MessagePack only' unless request.format == 'msgpack'

  MessagePack.pack(to_msgpack_value(value))
end)
