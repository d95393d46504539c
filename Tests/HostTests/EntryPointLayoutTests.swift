import CModuleABI
import ModuleKit
import Testing

/// `ModuleExport` writes its answers with the request codes and the descriptor layout of
/// `modhost_abi.h` spelled out in Swift (a module compiles its entry point without the C
/// module): they must be the header's.
@Suite struct EntryPointLayoutTests {
    final class LayoutModule: Module {
        static let name = "LayoutModule"
        static let version = "3.1.4"
        static let provides: [RouteKey] = []
        static let requires: [RouteKey] = []
        static let uses: [RouteKey] = []
        init() {}
        func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {}
    }

    @Test func theDescriptorIsTheHeadersStruct() throws {
        let raw = try #require(ModuleExport.entry(LayoutModule.self, UInt32(MODHOST_REQUEST_DESCRIBE)))
        let descriptor = raw.assumingMemoryBound(to: modhost_descriptor.self).pointee
        #expect(descriptor.abi_version == MODHOST_ABI_VERSION)
        #expect(String(cString: try #require(descriptor.sdk_version)) == ModuleKitABI.compiledSDKVersion.description)
        #expect(String(cString: try #require(descriptor.sdk_version)) == ModuleKitABI.sdkVersion)
        #expect(String(cString: try #require(descriptor.name)) == "LayoutModule")
        #expect(String(cString: try #require(descriptor.version)) == "3.1.4")
        #expect(MemoryLayout<modhost_descriptor>.size == 4 * MemoryLayout<UnsafeRawPointer>.size)
    }

    @Test func instantiateAnswersAModuleAndAnythingElseNothing() throws {
        let object = try #require(ModuleExport.entry(LayoutModule.self, UInt32(MODHOST_REQUEST_INSTANTIATE)))
        let instance = Unmanaged<AnyObject>.fromOpaque(object).takeRetainedValue() as? ModuleInstance
        #expect(instance?.manifest.name == "LayoutModule")
        #expect(ModuleExport.entry(LayoutModule.self, 0) == nil)
        #expect(ModuleExport.entry(LayoutModule.self, 3) == nil)
        #expect(ModuleKitABI.describeRequest == UInt32(MODHOST_REQUEST_DESCRIBE))
        #expect(ModuleKitABI.instantiateRequest == UInt32(MODHOST_REQUEST_INSTANTIATE))
    }
}
