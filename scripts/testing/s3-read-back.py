"""Reads back every object under a prefix of a bucket with boto3 (AWS's own client) and prints
one JSON object: {"objects": [{key, size, sha256, content_type, cache_control, checksum_sha256}]}.

    s3-read-back.py --endpoint URL --bucket NAME --prefix P --key ID --secret SECRET"""

import argparse
import hashlib
import json

import boto3
from botocore.config import Config


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--endpoint", required=True)
    parser.add_argument("--bucket", required=True)
    parser.add_argument("--prefix", default="")
    parser.add_argument("--key", required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--region", default="us-east-1")
    arguments = parser.parse_args()
    s3 = boto3.client("s3", endpoint_url=arguments.endpoint, region_name=arguments.region,
                      aws_access_key_id=arguments.key, aws_secret_access_key=arguments.secret,
                      config=Config(s3={"addressing_style": "path"}))
    objects = []
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=arguments.bucket, Prefix=arguments.prefix):
        for item in page.get("Contents", []):
            answer = s3.get_object(Bucket=arguments.bucket, Key=item["Key"], ChecksumMode="ENABLED")
            body = answer["Body"].read()
            objects.append({
                "key": item["Key"],
                "size": len(body),
                "sha256": hashlib.sha256(body).hexdigest(),
                "content_type": answer.get("ContentType", ""),
                "cache_control": answer.get("CacheControl", ""),
                "checksum_sha256": answer.get("ChecksumSHA256", ""),
            })
    print(json.dumps({"objects": objects}))


if __name__ == "__main__":
    main()
