import BelayObjectStore
import Foundation
import Testing

/// The signer held to the worked examples of AWS's "Signature Version 4" documentation for S3
/// (header signing and a presigned URL), with the documentation's example key.
@Suite struct SigV4SignerTests {
    static let signer = SigV4Signer(credentials: ObjectStoreCredentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE",
                                                                        secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
                                    region: "us-east-1")
    /// 2013-05-24T00:00:00Z, the examples' moment.
    static let date = Date(timeIntervalSince1970: 1_369_353_600)
    static let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    @Test func getObjectWithARange() {
        let request = SigV4Signer.Request(method: "GET", path: "/test.txt", headers: [
            ("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9"),
            ("x-amz-content-sha256", Self.emptyHash), ("x-amz-date", "20130524T000000Z"),
        ], payloadHash: Self.emptyHash)
        #expect(Self.signer.authorization(for: request, at: Self.date)
            == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test func putObjectWithAnEncodedKey() {
        let payload = "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072"
        let request = SigV4Signer.Request(method: "PUT", path: "/test$file.text", headers: [
            ("Host", "examplebucket.s3.amazonaws.com"), ("Date", "Fri, 24 May 2013 00:00:00 GMT"),
            ("x-amz-date", "20130524T000000Z"), ("x-amz-storage-class", "REDUCED_REDUNDANCY"), ("x-amz-content-sha256", payload),
        ], payloadHash: payload)
        #expect(Self.signer.authorization(for: request, at: Self.date).hasSuffix(
            "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"))
    }

    @Test func listObjectsWithAQuery() {
        let request = SigV4Signer.Request(method: "GET", path: "/", query: [("max-keys", "2"), ("prefix", "J")], headers: [
            ("Host", "examplebucket.s3.amazonaws.com"), ("x-amz-content-sha256", Self.emptyHash), ("x-amz-date", "20130524T000000Z"),
        ], payloadHash: Self.emptyHash)
        #expect(Self.signer.authorization(for: request, at: Self.date).hasSuffix(
            "Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"))
    }

    @Test func aPresignedURL() {
        let query = Self.signer.presignedQuery(host: "examplebucket.s3.amazonaws.com", path: "/test.txt", expires: 86_400, at: Self.date)
        #expect(query.hasSuffix("X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"))
        #expect(query.contains("X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"))
    }

    @Test func keysAreEncodedOnceAndSlashesKept() {
        #expect(SigV4Signer.encode("/club/images/ab/ab cd+é.png", keepSlash: true) == "/club/images/ab/ab%20cd%2B%C3%A9.png")
        #expect(SigV4Signer.encode("a/b", keepSlash: false) == "a%2Fb")
    }
}
