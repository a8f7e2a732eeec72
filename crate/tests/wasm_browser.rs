//! The binding layer in headless Chromium (wasm-bindgen-test-runner with chromedriver), including the
//! chart drawn by plotters-canvas on a real canvas.
#![cfg(target_arch = "wasm32")]

mod wasm_common;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn cook_vectors_in_chromium() {
    assert_eq!(wasm_common::cook_vectors(), 78);
}

#[wasm_bindgen_test]
fn raw_value_forms_in_chromium() {
    wasm_common::raw_value_forms();
}

#[wasm_bindgen_test]
fn describe_in_chromium() {
    wasm_common::describe();
}

#[wasm_bindgen_test]
fn series_in_chromium() {
    wasm_common::series();
}

#[wasm_bindgen_test]
fn chart_draws_the_series_colour_on_a_canvas() {
    let doc = web_sys::window().unwrap().document().unwrap();
    let canvas: web_sys::HtmlCanvasElement =
        doc.create_element("canvas").unwrap().dyn_into().unwrap();
    canvas.style().set_property("width", "400px").unwrap();
    canvas.style().set_property("height", "200px").unwrap();
    doc.body().unwrap().append_child(&canvas).unwrap();
    let n = 1000;
    let ts: Vec<f64> = (0..n).map(|i| 1.6e12 + i as f64 * 1000.0).collect();
    let vs: Vec<f64> = (0..n).map(|i| (i % 50) as f64).collect();
    let series = js_sys::Array::new();
    let s = js_sys::Object::new();
    js_sys::Reflect::set(&s, &"label".into(), &"demo".into()).unwrap();
    js_sys::Reflect::set(&s, &"values".into(), &js_sys::Float64Array::from(&vs[..])).unwrap();
    series.push(&s);
    let layout = counterlens::wasm::render_series_chart(
        canvas.clone(),
        &ts,
        series,
        wasm_bindgen::JsValue::UNDEFINED,
    )
    .unwrap();
    let plot_w = js_sys::Reflect::get(&layout, &"plotWidth".into())
        .unwrap()
        .as_f64()
        .unwrap();
    assert!(plot_w > 200.0 && plot_w < 400.0, "plot width {plot_w}");
    // Count pixels of the first palette colour (0, 114, 178), allowing for anti-aliasing.
    let ctx: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let data = ctx
        .get_image_data(0.0, 0.0, canvas.width() as f64, canvas.height() as f64)
        .unwrap()
        .data();
    let blue = data
        .chunks(4)
        .filter(|p| p[0] < 60 && (90..140).contains(&p[1]) && p[2] > 150)
        .count();
    assert!(blue > 500, "only {blue} series-coloured pixels");
}

#[wasm_bindgen_test]
fn registration_cases_in_chromium() {
    assert_eq!(wasm_common::registration_cases(), 10);
}

#[wasm_bindgen_test]
fn capture_files_in_chromium() {
    assert_eq!(wasm_common::capture_files(), 16);
}
