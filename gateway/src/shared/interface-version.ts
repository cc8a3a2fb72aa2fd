// The published interface description is OpenAPI 3.1 at this interface version; the MCP servers and the metering
// lane announce the same number.
export const interfaceVersion = '1.10.353';
