package org.testbed.rest;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.testbed.http.Response;

/** Copies a shared {@link Response} into a {@link ResponseEntity}. */
final class SpringResponses {
    private SpringResponses() {
    }

    static ResponseEntity<byte[]> of(Response response) {
        HttpHeaders headers = new HttpHeaders();
        if (response.contentType() != null) {
            // Preset, so Spring writes these bytes as they are and skips content negotiation.
            headers.set(HttpHeaders.CONTENT_TYPE, response.contentType());
        }
        headers.setContentLength(response.body().length);
        response.forEachHeader(headers::set);
        return new ResponseEntity<>(response.body().length == 0 ? null : response.body(), headers, response.status());
    }
}
