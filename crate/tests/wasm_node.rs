//! The binding layer under Node (wasm-bindgen-test's default environment).
#![cfg(target_arch = "wasm32")]

mod wasm_common;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn cook_vectors_in_node() {
    assert_eq!(wasm_common::cook_vectors(), 78);
}

#[wasm_bindgen_test]
fn raw_value_forms_in_node() {
    wasm_common::raw_value_forms();
}

#[wasm_bindgen_test]
fn describe_in_node() {
    wasm_common::describe();
}

#[wasm_bindgen_test]
fn series_in_node() {
    wasm_common::series();
}

#[wasm_bindgen_test]
fn registration_cases_in_node() {
    assert_eq!(wasm_common::registration_cases(), 10);
}

#[wasm_bindgen_test]
fn capture_files_in_node() {
    assert_eq!(wasm_common::capture_files(), 16);
}
