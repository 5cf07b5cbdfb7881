/// The OpenAPI 3.1 document of `pushline serve`, served at `/openapi.json` and committed as `api/openapi.json`
/// (a test keeps the two, and the routes, in step). Written out in full so the installed binary needs no files.
extension PushServer {
    /// The document's JSON text.
    public static let openAPIDocument = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "pushline serve",
    "version": "1",
    "description": "The notify-users backend of Pushline: the Notification Hubs tutorial's device and notification routes, the official sample backend's routes, pipelines over HTTP and operations. Users sign in with HTTP Basic or a Bearer JWT; keys go in the `apikey` header (never the URL)."
  },
  "servers": [
    {
      "url": "http://127.0.0.1:8088"
    }
  ],
  "security": [
    {
      "basic": []
    },
    {
      "bearer": []
    },
    {
      "apiKey": []
    }
  ],
  "paths": {
    "/api/notifications": {
      "post": {
        "operationId": "notifyUser",
        "summary": "Notify a user by name (scope send)",
        "parameters": [
          {
            "name": "pns",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "enum": [
                "apns",
                "fcmv1",
                "gcm",
                "fcm",
                "wns",
                "mpns"
              ]
            }
          },
          {
            "name": "to_tag",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "string",
                "minLength": 1
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The hub accepted the notification"
          },
          "400": {
            "$ref": "#/components/responses/Problem400"
          },
          "413": {
            "$ref": "#/components/responses/Problem413"
          },
          "415": {
            "$ref": "#/components/responses/Problem415"
          },
          "422": {
            "$ref": "#/components/responses/Problem422"
          },
          "502": {
            "$ref": "#/components/responses/Problem502"
          },
          "503": {
            "$ref": "#/components/responses/Problem503"
          },
          "401": {
            "$ref": "#/components/responses/Problem401"
          },
          "403": {
            "$ref": "#/components/responses/Problem403"
          },
          "429": {
            "$ref": "#/components/responses/Problem429"
          }
        }
      }
    },
    "/api/notifications/installations": {
      "put": {
        "operationId": "putInstallation",
        "summary": "Create or update the caller's installation (scope register)",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/DeviceInstallation"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Installed"
          },
          "400": {
            "$ref": "#/components/responses/Problem400"
          },
          "404": {
            "$ref": "#/components/responses/Problem404"
          },
          "413": {
            "$ref": "#/components/responses/Problem413"
          },
          "415": {
            "$ref": "#/components/responses/Problem415"
          },
          "422": {
            "$ref": "#/components/responses/Problem422"
          },
          "502": {
            "$ref": "#/components/responses/Problem502"
          },
          "503": {
            "$ref": "#/components/responses/Problem503"
          },
          "401": {
            "$ref": "#/components/responses/Problem401"
          },
          "403": {
            "$ref": "#/components/responses/Problem403"
          },
          "429": {
            "$ref": "#/components/responses/Problem429"
          }
        }
      }
    },
    "/api/notifications/installations/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "delete": {
        "operationId": "deleteInstallation",
        "summary": "Delete the caller's installation (scope register)",
        "responses": {
          "200": {
            "description": "Deleted"
          },
          "400": {
            "$ref": "#/components/responses/Problem400"
          },
          "404": {
            "$ref": "#/components/responses/Problem404"
          },
          "502": {
            "$ref": "#/components/responses/Problem502"
          },
          "503": {
            "$ref": "#/components/responses/Problem503"
          },
          "401": {
            "$ref": "#/components/responses/Problem401"
          },
          "403": {
            "$ref": "#/components/responses/Problem403"
          },
          "429": {
            "$ref": "#/components/responses/Problem429"
          }
        }
      }
    },
    "/api/notifications/requests": {
      "post": {
        "operationId": "notificationRequest",
        "summary": "Send the request templates to tags (scope send; sender keys)",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NotificationRequest"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Sent"
          },
          "400": {
            "$ref": "#/components/responses/Problem400"
          },
          "413": {
            "$ref": "#/components/responses/Problem413"
          },
          "415": {
            "$ref": "#/components/responses/Problem415"
          },
          "422": {
            "$ref": "#/components/responses/Problem422"
          },
          "502": {
            "$ref": "#/components/responses/Problem502"
          },
          "503": {
            "$ref": "#/components/responses/Problem503"
          },
          "401": {
            "$ref": "#/components/responses/Problem401"
          },
          "403": {
            "$ref": "#/components/responses/Problem403"
          },
          "429": {
            "$ref": "#/components/responses/Problem429"
          }
        }
      }
    },
    "/api/register": {
      "post": {
        "operationId": "createRegistrationId",
        "summary": "A registration id for the caller's device (scope register)",
        "parameters": [
          {
            "name": "handle",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string",
              "maxLength": 4096
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The registration id as a JSON string",
            "content": {
              "application/json": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem400"
          },
          "413": {
            "$ref": "#/components/responses/Problem413"
          },
          "415": {
            "$ref": "#/components/responses/Problem415"
          },
          "502": {
            "$ref": "#/components/responses/Problem502"
          },
          "503": {
            "$ref": "#/components/responses/Problem503"
          },
          "401": {
            "$ref": "#/components/responses/Problem401"
          },
          "403": {
            "$ref": "#/components/responses/Problem403"
          },
          "429": {
            "$ref": "#/components/responses/Problem429"
          }
        }
      }
    },
    "/api/register/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "put": {
        "operationId": "upsertRegistration",
        "summary": "Create or update the caller's registration (scope register)",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/DeviceRegistration"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Registered"
          },
          "400": {
            "$ref": "#/components/responses/Problem400"
          },
          "404": {
            "$ref": "#/components/responses/Problem404"
          },
          "410": {
            "$ref": "#/components/responses/Problem410"
          },
          "413": {
            "$ref": "#/components/responses/Problem413"
          },
          "415": {
            "$ref": "#/components/responses/Problem415"
          },
          "422": {
            "$ref": "#/components/responses/Problem422"
          },
          "502": {
            "$ref": "#/components/responses/Problem502"
          },
          "503": {
            "$ref": "#/components/responses/Problem503"
          },
          "401": {
            "$ref": "#/components/responses/Problem401"
          },
          "403": {
            "$ref": "#/components/responses/Problem403"
          },
          "429": {
            "$ref": "#/components/responses/Problem429"
          }
        }
      },
      "delete": {
        "operationId": "deleteRegistration",
        "summary": "Delete the caller's registration (scope register)",
        "responses": {
          "200": {
            "description": "Deleted"
          },
          "404": {
            "$ref": "#/components/responses/Problem404"
          },
          "502": {
            "$ref": "#/components/responses/Problem502"
          },
          "503": {
            "$ref": "#/components/responses/Problem503"
          },
          "401": {
            "$ref": "#/components/responses/Problem401"
          },
          "403": {
            "$ref": "#/components/responses/Problem403"
          },
          "429": {
            "$ref": "#/components/responses/Problem429"
          }
        }
      }
    },
    "/healthz": {
      "get": {
        "operationId": "healthz",
        "summary": "Alive",
        "security": [],
        "responses": {
          "200": {
            "description": "Alive",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          }
        }
      }
    },
    "/metrics": {
      "get": {
        "operationId": "metrics",
        "summary": "Prometheus text (scope admin)",
        "responses": {
          "200": {
            "description": "Metrics",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Problem401"
          },
          "403": {
            "$ref": "#/components/responses/Problem403"
          },
          "429": {
            "$ref": "#/components/responses/Problem429"
          }
        }
      }
    },
    "/openapi.json": {
      "get": {
        "operationId": "openapi",
        "summary": "This document",
        "security": [],
        "responses": {
          "200": {
            "description": "The OpenAPI document",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          }
        }
      }
    },
    "/readyz": {
      "get": {
        "operationId": "readyz",
        "summary": "The hub accepts the service's key",
        "security": [],
        "responses": {
          "200": {
            "description": "Ready",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          },
          "503": {
            "$ref": "#/components/responses/Problem503"
          }
        }
      }
    },
    "/v1/installations/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "maxLength": 256
          }
        }
      ],
      "put": {
        "operationId": "putVersionedInstallation",
        "summary": "Create or update the caller's installation (scope register)",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/VersionedInstallation"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Installed"
          },
          "400": {
            "$ref": "#/components/responses/Problem400"
          },
          "401": {
            "$ref": "#/components/responses/Problem401"
          },
          "403": {
            "$ref": "#/components/responses/Problem403"
          },
          "404": {
            "$ref": "#/components/responses/Problem404"
          },
          "413": {
            "$ref": "#/components/responses/Problem413"
          },
          "415": {
            "$ref": "#/components/responses/Problem415"
          },
          "422": {
            "$ref": "#/components/responses/Problem422"
          },
          "429": {
            "$ref": "#/components/responses/Problem429"
          },
          "502": {
            "$ref": "#/components/responses/Problem502"
          },
          "503": {
            "$ref": "#/components/responses/Problem503"
          }
        }
      },
      "get": {
        "operationId": "getVersionedInstallation",
        "summary": "The caller's installation (scope register)",
        "responses": {
          "200": {
            "description": "The installation",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/InstallationView"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem400"
          },
          "401": {
            "$ref": "#/components/responses/Problem401"
          },
          "403": {
            "$ref": "#/components/responses/Problem403"
          },
          "404": {
            "$ref": "#/components/responses/Problem404"
          },
          "429": {
            "$ref": "#/components/responses/Problem429"
          },
          "502": {
            "$ref": "#/components/responses/Problem502"
          },
          "503": {
            "$ref": "#/components/responses/Problem503"
          }
        }
      },
      "delete": {
        "operationId": "deleteVersionedInstallation",
        "summary": "Delete the caller's installation (scope register)",
        "responses": {
          "200": {
            "description": "Deleted"
          },
          "400": {
            "$ref": "#/components/responses/Problem400"
          },
          "401": {
            "$ref": "#/components/responses/Problem401"
          },
          "403": {
            "$ref": "#/components/responses/Problem403"
          },
          "404": {
            "$ref": "#/components/responses/Problem404"
          },
          "429": {
            "$ref": "#/components/responses/Problem429"
          },
          "502": {
            "$ref": "#/components/responses/Problem502"
          },
          "503": {
            "$ref": "#/components/responses/Problem503"
          }
        }
      }
    },
    "/v1/pipelines/{name}/runs": {
      "parameters": [
        {
          "name": "name",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        },
        {
          "name": "Idempotency-Key",
          "in": "header",
          "required": false,
          "schema": {
            "type": "string",
            "minLength": 1,
            "maxLength": 255
          }
        }
      ],
      "post": {
        "operationId": "startRun",
        "summary": "Run a pipeline the service file names (scope admin)",
        "requestBody": {
          "required": false,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/RunRequest"
              }
            }
          }
        },
        "responses": {
          "202": {
            "description": "Started",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Run"
                }
              }
            }
          },
          "200": {
            "description": "The same run, already completed or started with this Idempotency-Key",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Run"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem400"
          },
          "404": {
            "$ref": "#/components/responses/Problem404"
          },
          "409": {
            "$ref": "#/components/responses/Problem409"
          },
          "413": {
            "$ref": "#/components/responses/Problem413"
          },
          "415": {
            "$ref": "#/components/responses/Problem415"
          },
          "422": {
            "$ref": "#/components/responses/Problem422"
          },
          "503": {
            "$ref": "#/components/responses/Problem503"
          },
          "401": {
            "$ref": "#/components/responses/Problem401"
          },
          "403": {
            "$ref": "#/components/responses/Problem403"
          },
          "429": {
            "$ref": "#/components/responses/Problem429"
          }
        }
      }
    },
    "/v1/runs/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "showRun",
        "summary": "A run's state and item counts (scope admin)",
        "responses": {
          "200": {
            "description": "The run",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Run"
                }
              }
            }
          },
          "404": {
            "$ref": "#/components/responses/Problem404"
          },
          "503": {
            "$ref": "#/components/responses/Problem503"
          },
          "401": {
            "$ref": "#/components/responses/Problem401"
          },
          "403": {
            "$ref": "#/components/responses/Problem403"
          },
          "429": {
            "$ref": "#/components/responses/Problem429"
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "basic": {
        "type": "http",
        "scheme": "basic",
        "description": "A user of the service's htpasswd file (bcrypt)."
      },
      "apiKey": {
        "type": "apiKey",
        "in": "header",
        "name": "apikey",
        "description": "A key from the service file; also accepted as `Authorization: ApiKey KEY`."
      },
      "bearer": {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "JWT",
        "description": "A JWT from the identity provider the service file's `jwt:` names (HS256, RS256 or ES256; iss, aud, exp, nbf checked)."
      }
    },
    "schemas": {
      "Problem": {
        "type": "object",
        "required": [
          "type",
          "title",
          "status",
          "detail"
        ],
        "properties": {
          "type": {
            "type": "string"
          },
          "title": {
            "type": "string"
          },
          "status": {
            "type": "integer"
          },
          "detail": {
            "type": "string"
          },
          "field": {
            "type": "string",
            "description": "The request field at fault, when one is"
          }
        }
      },
      "DeviceRegistration": {
        "type": "object",
        "required": [
          "Platform",
          "Handle"
        ],
        "properties": {
          "Platform": {
            "type": "string",
            "enum": [
              "apns",
              "fcmv1",
              "gcm",
              "fcm",
              "wns",
              "mpns"
            ]
          },
          "Handle": {
            "type": "string"
          },
          "Tags": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "maxItems": 60
          }
        }
      },
      "DeviceInstallation": {
        "type": "object",
        "required": [
          "installationId",
          "platform",
          "pushChannel"
        ],
        "properties": {
          "installationId": {
            "type": "string",
            "maxLength": 256
          },
          "platform": {
            "type": "string",
            "enum": [
              "apns",
              "fcm",
              "fcmv1",
              "gcm",
              "wns"
            ]
          },
          "pushChannel": {
            "type": "string"
          },
          "tags": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "maxItems": 60
          }
        }
      },
      "NotificationRequest": {
        "type": "object",
        "required": [
          "tags"
        ],
        "properties": {
          "text": {
            "type": "string"
          },
          "action": {
            "type": "string"
          },
          "silent": {
            "type": "boolean"
          },
          "tags": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "minItems": 1,
            "maxItems": 1000
          }
        }
      },
      "RunRequest": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "parameters": {
            "type": "object",
            "additionalProperties": {
              "type": [
                "string",
                "integer",
                "boolean"
              ]
            }
          }
        }
      },
      "Run": {
        "type": "object",
        "required": [
          "id",
          "pipeline",
          "status",
          "startedAt",
          "resumes",
          "counts"
        ],
        "properties": {
          "id": {
            "type": "string"
          },
          "pipeline": {
            "type": "string"
          },
          "status": {
            "type": "string",
            "enum": [
              "running",
              "completed",
              "partial",
              "failed",
              "interrupted"
            ]
          },
          "startedAt": {
            "type": "string",
            "format": "date-time"
          },
          "endedAt": {
            "type": "string",
            "format": "date-time"
          },
          "exitCode": {
            "type": "integer"
          },
          "resumes": {
            "type": "integer"
          },
          "counts": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "step",
                "stepId",
                "state",
                "count"
              ],
              "properties": {
                "step": {
                  "type": "integer"
                },
                "stepId": {
                  "type": "string"
                },
                "state": {
                  "type": "string"
                },
                "count": {
                  "type": "integer"
                }
              }
            }
          },
          "report": {
            "type": "object",
            "description": "The run's report once it has ended, as `pushline run --format json` prints it"
          }
        }
      },
      "VersionedInstallation": {
        "type": "object",
        "required": [
          "platform",
          "pushChannel"
        ],
        "properties": {
          "installationId": {
            "type": "string",
            "description": "optional; must equal the id in the path"
          },
          "platform": {
            "type": "string",
            "enum": [
              "apns",
              "fcm",
              "fcmv1",
              "gcm",
              "wns"
            ]
          },
          "pushChannel": {
            "type": "string"
          },
          "tags": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "maxItems": 60
          }
        }
      },
      "InstallationView": {
        "type": "object",
        "required": [
          "installationId",
          "platform",
          "pushChannel",
          "tags"
        ],
        "properties": {
          "installationId": {
            "type": "string"
          },
          "platform": {
            "type": "string"
          },
          "pushChannel": {
            "type": "string"
          },
          "tags": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "userId": {
            "type": "string"
          }
        }
      }
    },
    "responses": {
      "Problem400": {
        "description": "Bad request",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Problem401": {
        "description": "No or wrong credentials",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Problem403": {
        "description": "Missing scope or not the caller's",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Problem404": {
        "description": "Not found",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Problem409": {
        "description": "A run is in progress",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Problem410": {
        "description": "Gone: ask for a new id",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Problem413": {
        "description": "Body too large",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Problem415": {
        "description": "Not JSON",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Problem422": {
        "description": "Refused, with the reason",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Problem429": {
        "description": "Rate limited",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Problem502": {
        "description": "The hub failed",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "Problem503": {
        "description": "Unavailable",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      }
    }
  }
}

"""#
}
