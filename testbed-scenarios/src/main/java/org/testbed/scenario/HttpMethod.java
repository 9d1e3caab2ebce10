package org.testbed.scenario;

/** The four methods the contract uses. */
public enum HttpMethod {
    GET, PUT, POST, DELETE
}
