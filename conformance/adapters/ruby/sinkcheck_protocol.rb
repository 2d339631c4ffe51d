# frozen_string_literal: true

# The encoder side of the sinkcheck conformance protocol for encoders written in Ruby, the
# counterpart of ../python/sinkcheck_protocol.py (docs/conformance.md, "The protocol").
#
# An adapter hands a block to SinkcheckProtocol.serve: the block gets the value and the request
# (format, use_size, use_type) and returns the encoding as a String. It raises
# SinkcheckProtocol::Unsupported to declare a value unsupported, SinkcheckProtocol::Refused (or
# one of the classes passed as serve(refusals: [...]), those its library raises to reject a
# value) to refuse it. Any other exception is an error of the adapter: the process prints it and
# exits 70, and the runner grades the vector a crash.
#
# Values arrive in the JSON notation (--notation json; docs/cli.md, "Values JSON text cannot
# hold") and become Ruby values: Hashes in the vector's key order, Integers of any size, Floats
# with their bits (NaN payloads, -0.0), UTF-8 Strings (a string that is not UTF-8 keeps its
# bytes, tagged UTF-8 and not valid_encoding?, as a Ruby program can hold it), binary as a
# String in ASCII-8BIT (Binary when it has a subtype), and DISCARDED. A notation object the
# helper cannot read is a protocol error, never "unsupported": the process stops (exit 70).
require 'json'

module SinkcheckProtocol
  EXIT_REFUSED = 65
  EXIT_UNSUPPORTED = 77
  EXIT_SOFTWARE = 70

  class Unsupported < StandardError; end
  class Refused < StandardError; end
  class NotationError < StandardError; end

  # A byte string with a subtype (a CBOR tag, a MessagePack ext type).
  Binary = Struct.new(:data, :subtype)
  DISCARDED = Object.new.freeze
  Request = Struct.new(:format, :use_size, :use_type)

  HEX = /\A(?:[0-9a-fA-F]{2})*\z/.freeze

  module_function

  def hex_bytes(v, at, name)
    raise NotationError, "#{at}: #{name} holds a string of an even number of hex digits" unless v.is_a?(String) && HEX.match?(v)

    [v].pack('H*')
  end

  def decimal(v, at, name)
    return v if v.is_a?(Integer)
    return Integer(v, 10) if v.is_a?(String) && /\A-?(?:0|[1-9][0-9]*)\z/.match?(v)

    raise NotationError, "#{at}: #{name} holds an integer, as a number or a string of decimal digits"
  end

  # {"$float": ...}: "nan", "inf", "-inf", the binary64 bits as 16 hex digits (with or without
  # "0x"), or a decimal.
  def float_value(s, at)
    raise NotationError, "#{at}: $float holds a string" unless s.is_a?(String)

    case s
    when 'nan' then Float::NAN
    when 'inf' then Float::INFINITY
    when '-inf' then -Float::INFINITY
    when /\A(?:0x)?([0-9a-fA-F]{16})\z/ then [Regexp.last_match(1)].pack('H*').unpack1('G')
    when /\A-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\z/ then Float(s)
    else raise NotationError, "#{at}: $float holds #{s.inspect}, not a number"
    end
  end

  def key_bytes(k, at)
    return k if k.is_a?(String)
    return hex_bytes(k['$string'], at, '$string').force_encoding(Encoding::UTF_8) if k.is_a?(Hash) && k.keys == ['$string']

    raise NotationError, "#{at}: a key is a string or {\"$string\": hex}"
  end

  # Applies the notation to what JSON.parse read (values nest at most a few thousand deep in the
  # default profile and the corpus; Ruby's stack holds that).
  def from_notation(v, at = '')
    case v
    when Array then v.each_with_index.map { |e, i| from_notation(e, "#{at}/#{i}") }
    when Hash then object_from_notation(v, at)
    else v
    end
  end

  def object_from_notation(o, at)
    keys = o.keys.sort
    case keys
    when ['$binary'] then hex_bytes(o['$binary'], at, '$binary')
    when ['$binary', '$subtype'] then Binary.new(hex_bytes(o['$binary'], at, '$binary'), decimal(o['$subtype'], at, '$subtype'))
    when ['$float'] then float_value(o['$float'], at)
    when ['$integer'] then decimal(o['$integer'], at, '$integer')
    when ['$string'] then hex_bytes(o['$string'], at, '$string').force_encoding(Encoding::UTF_8)
    when ['$discarded']
      raise NotationError, "#{at}: $discarded holds true" unless o['$discarded'] == true

      DISCARDED
    when ['$members']
      list = o['$members']
      raise NotationError, "#{at}: $members holds an array of [key, value] pairs" unless list.is_a?(Array)

      out = {}
      list.each_with_index do |pair, i|
        here = "#{at}/$members/#{i}"
        raise NotationError, "#{here}: a member is a [key, value] pair" unless pair.is_a?(Array) && pair.size == 2

        out[key_bytes(pair[0], "#{here}/0")] = from_notation(pair[1], "#{here}/1")
      end
      out
    when ['$object']
      inner = o['$object']
      raise NotationError, "#{at}: $object holds an object" unless inner.is_a?(Hash)

      inner.to_h { |k, e| [k, from_notation(e, "#{at}/$object/#{k}")] }
    else o.to_h { |k, e| [k, from_notation(e, "#{at}/#{k}")] }
    end
  end

  def parse_value(text)
    from_notation(JSON.parse(text, max_nesting: false, create_additions: false))
  end

  # [status, payload]: 0 encoded, 1 refused, 2 unsupported.
  def answer(fields, text, refusals)
    value = parse_value(text)
    request = Request.new(fields['format'], fields['use_size'] == '1', fields['use_type'] == '1')
    begin
      [0, yield(value, request).b]
    rescue Unsupported => e
      [2, e.message.b]
    rescue Refused, *refusals => e
      [1, "#{e.class}: #{e.message}".b]
    end
  end

  def serve_batch(refusals, &encode)
    input = $stdin.binmode
    output = $stdout.binmode
    loop do
      head = input.read(4)
      return 0 if head.nil? || head.bytesize < 4

      payload = input.read(head.unpack1('N'))
      header, text = payload.split("\n\n", 2)
      fields = header.split("\n").map { |line| line.split('=', 2) }.select { |kv| kv.size == 2 }.to_h
      status, body = answer(fields, text.force_encoding(Encoding::UTF_8), refusals, &encode)
      output.write([status, Integer(fields.fetch('seq'), 10), body.bytesize].pack('CNN'), body)
      output.flush
    end
  end

  def serve_one(refusals, &encode)
    fields = { 'format' => ENV['SINKCHECK_FORMAT'], 'use_size' => ENV['SINKCHECK_USE_SIZE'],
               'use_type' => ENV['SINKCHECK_USE_TYPE'] }
    status, body = answer(fields, $stdin.binmode.read.force_encoding(Encoding::UTF_8), refusals, &encode)
    if status.zero?
      $stdout.binmode.write(body)
      return 0
    end
    warn body
    status == 1 ? EXIT_REFUSED : EXIT_UNSUPPORTED
  end

  # Runs the protocol on stdin and stdout; returns the exit status. It reads the JSON notation
  # only (reading the token notation as JSON would misread values), so it stops otherwise.
  def serve(refusals: [], &encode)
    notation = ENV['SINKCHECK_NOTATION']
    unless notation == 'json'
      warn "this encoder reads the JSON notation: run it with sinkcheck conform --notation json (SINKCHECK_NOTATION is #{notation.inspect})"
      return EXIT_SOFTWARE
    end
    ENV['SINKCHECK_MODE'] == 'batch' ? serve_batch(refusals, &encode) : serve_one(refusals, &encode)
  rescue StandardError, SystemStackError => e
    warn "#{e.class}: #{e.message}", *e.backtrace.first(20)
    EXIT_SOFTWARE
  end
end
