#!/usr/bin/perl
# CBOR::XS (Debian libcbor-xs-perl 1.86) as a sinkcheck conformance encoder, CBOR only:
#
#   sinkcheck conform --format cbor --mode batch --notation json --encoder 'perl cbor_xs_encoder.pl'
#
# Writes CBOR::XS->new->encode($value) with the library's defaults. Values are what a Perl
# program holds: numbers with an integer slot or only a double slot (the library chooses the
# encoding of each), Math::BigInt beyond 64 bits, upgraded character strings for text, octet
# strings for binary, CBOR::XS::tag($subtype, $octets) for a binary subtype,
# Types::Serialiser::true/false, and an object as CBOR::XS::as_map [key => value, ...] in the
# vector's key order (a Perl hash has none). A string whose bytes are no sequence of code points
# has no Perl text string, and Perl has no discarded value: both declared unsupported. What
# CBOR::XS croaks with is its refusal.
use strict;
use warnings;
no warnings 'recursion';
use FindBin;
use lib $FindBin::Bin;
use CBOR::XS;
use Types::Serialiser;
use SinkcheckProtocol;

sub to_cbor_xs {
    my ($v) = @_;
    my $type = ref $v;
    return $v if $type eq '' || $type eq 'Math::BigInt';
    return $$v ? Types::Serialiser::true : Types::Serialiser::false if $type eq 'SinkcheckProtocol::Bool';
    return [map { to_cbor_xs($_) } @$v] if $type eq 'ARRAY';
    return CBOR::XS::as_map([map { to_cbor_xs($_) } @$v]) if $type eq 'SinkcheckProtocol::Object';
    if ($type eq 'SinkcheckProtocol::Binary') {
        return $v->{data} unless defined $v->{subtype};
        return CBOR::XS::tag($v->{subtype}, $v->{data});
    }
    SinkcheckProtocol::unsupported('text that is no sequence of code points has no Perl string')
        if $type eq 'SinkcheckProtocol::RawString';
    SinkcheckProtocol::unsupported('Perl has no discarded value') if $type eq 'SinkcheckProtocol::Discarded';
    die "cbor_xs_encoder: no conversion for $type\n";
}

my $cbor = CBOR::XS->new;
exit SinkcheckProtocol::serve(sub {
    my ($value, $request) = @_;
    SinkcheckProtocol::unsupported('CBOR::XS writes CBOR only') unless $request->{format} eq 'cbor';
    my $converted = to_cbor_xs($value);
    return SinkcheckProtocol::refusing { $cbor->encode($converted) };
});
